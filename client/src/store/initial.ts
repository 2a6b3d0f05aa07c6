import type { Locale } from '../i18n/locale';
import type { DocumentsState, SessionState, StoreData } from './types';

export const initialSession: SessionState = { user: null, authReady: false };

export const initialDocuments: DocumentsState = { appointment: null, clinic: null, service: null, user: null };

export function initialData(locale: Locale): StoreData {
  return { session: initialSession, documents: initialDocuments, locale, loginNotice: null, saveStatus: 'idle' };
}
