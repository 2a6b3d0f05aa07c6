import type { StateCreator } from 'zustand';
import type { AppState } from './index';
import { initialDocuments, initialSession } from './initial';
import type { AuthUser, LoginNotice, SessionState } from './types';

export interface SessionSlice {
  session: SessionState;
  /** Records an authentication state change; the first one makes auth ready. */
  setAuthUser: (user: AuthUser | null) => void;
  loginNotice: LoginNotice | null;
  /** Set after a forced sign-out (reset clears it); the login screen shows and clears it. */
  setLoginNotice: (notice: LoginNotice | null) => void;
}

export const createSessionSlice: StateCreator<AppState, [], [], SessionSlice> = (set) => ({
  session: initialSession,
  loginNotice: null,
  setLoginNotice: (loginNotice) => {
    set({ loginNotice });
  },
  setAuthUser: (user) => {
    set((state) => {
      const previous = state.session.user;
      const sameUser = previous !== null && user !== null && previous.uid === user.uid;
      // Another person (or nobody) must never see the previous person's documents.
      return sameUser
        ? { session: { user, authReady: true } }
        : { session: { user, authReady: true }, documents: initialDocuments };
    });
  },
});
