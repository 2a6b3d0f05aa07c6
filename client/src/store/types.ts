/** Shapes held by the client-side store (docs/product.md "Records and their fields"). */
import type { Locale } from '../i18n/locale';

/** The signed-in person as GET /auth/session reports it. */
export interface AuthUser {
  uid: string;
  email: string;
  role: string | null;
  clinicId: string | null;
  /** A counselor's own counselor id (role `counselor`); absent or null otherwise. */
  counselorId?: string | null;
  /** Staff only: whether the session still needs its second factor (absent: "ok"). */
  secondFactor?: SecondFactorState;
  /**
   * A session opened by a booking mail's signed link (docs/protocol.md "Links in booking
   * mails"): it may do only `purpose` on `appointmentId`; absent for an e-mail sign-in.
   */
  link?: LinkGrant;
}

/** What a mail link's session may do: one purpose (contract.json linkPurposes) on one appointment. */
export interface LinkGrant {
  purpose: string;
  appointmentId: string;
  expiresAt: string | null;
}

/** A staff session's second factor (docs/protocol.md "Names fixed for the coming staff ..."). */
export type SecondFactorState = 'required' | 'enrol' | 'ok';

/** A live document as pushed by the server (docs/protocol.md "Live documents"). */
export interface Snapshot {
  path: string;
  exists: boolean;
  data: Record<string, unknown> | null;
  version: number;
}

/** One document held by the store: the newest snapshot of its path. */
export interface HeldDocument {
  path: string;
  exists: boolean;
  data: Record<string, unknown> | null;
  version: number;
}

export interface SessionState {
  user: AuthUser | null;
  /** True once the first authentication state is known. */
  authReady: boolean;
}

export type DocumentSlot = 'appointment' | 'clinic' | 'service' | 'user';

export type DocumentsState = Record<DocumentSlot, HeldDocument | null>;

/**
 * Why the person was sent back to the login screen, shown there once: the appointment could
 * not be created (docs/product.md "The booking flow"), the server ended the session (expired or revoked), or the
 * person cancelled their appointment (which ends every session of theirs), or erased their
 * account (the same).
 */
export type LoginNotice = 'appointmentFailed' | 'sessionEnded' | 'appointmentCancelled' | 'accountErased';

/** Everything the store holds, without its actions. */
/** What the person sees of their saves: "saving…", "saved", "will be sent when you are back online". */
export type SaveStatus = 'idle' | 'saving' | 'saved' | 'offline';

export interface StoreData {
  session: SessionState;
  documents: DocumentsState;
  locale: Locale;
  loginNotice: LoginNotice | null;
  saveStatus: SaveStatus;
}
