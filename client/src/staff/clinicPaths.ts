/**
 * The paths of the clinic's staff documents (docs/protocol.md, "Live documents" and "The
 * bookings window").
 */
export const CLINICS_PREFIX = 'clinics/';

export const bookingsPath = (clinicId: string) => `${CLINICS_PREFIX}${clinicId}/bookings`;
export const presencePath = (clinicId: string) => `${CLINICS_PREFIX}${clinicId}/presence`;
/** The bookings of the days `from`..`to` (YYYY-MM-DD in the clinic's zone, both included). */
export const bookingsWindowPath = (clinicId: string, from: string, to: string) => `${bookingsPath(clinicId)}/${from}/${to}`;

/** The longest window the server accepts, in days. */
export const MAX_WINDOW_DAYS = 62;
