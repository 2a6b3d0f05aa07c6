/** Read the store through these; they return stable references for unchanged data. */
import type { AppState } from './index';

export const selectAuthUser = (state: AppState) => state.session.user;
export const selectAuthReady = (state: AppState) => state.session.authReady;
export const selectIsSignedIn = (state: AppState) => state.session.user !== null;
export const selectLocale = (state: AppState) => state.locale;
export const selectUserDocument = (state: AppState) => state.documents.user;
export const selectAppointment = (state: AppState) => state.documents.appointment;
export const selectClinic = (state: AppState) => state.documents.clinic;
export const selectService = (state: AppState) => state.documents.service;
export const selectLoginNotice = (state: AppState) => state.loginNotice;

/** The id of the person's latest appointment (open or ended) from the user record, when there is one. */
export const selectAppointmentId = (state: AppState): string | null => {
  const id = state.documents.user?.data?.appointmentId;
  return typeof id === 'string' && id !== '' ? id : null;
};

/** The outbox's status: saving, saved, or waiting for the connection. */
export const selectSaveStatus = (state: AppState) => state.saveStatus;

/**
 * The status of the appointment the user record names, once its document is in; undefined
 * while it loads or while the store still holds another one (the record just moved on to a
 * new appointment).
 */
export const selectCurrentStatus = (state: AppState): unknown => {
  const id = selectAppointmentId(state);
  const appointment = state.documents.appointment;
  if (id === null || appointment?.path !== `appointments/${id}` || !appointment.exists) return undefined;
  return appointment.data?.status;
};
