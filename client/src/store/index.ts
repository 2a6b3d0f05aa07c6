/**
 * The client-side store (docs/product.md "Records and their fields"): session, documents and locale slices.
 * Components read it through the selectors; only the bindings feed it server pushes.
 */
import { create } from 'zustand';
import { resolveLocale, type Locale } from '../i18n/locale';
import { createDocumentsSlice, type DocumentsSlice } from './documentsSlice';
import { initialData } from './initial';
import { createLocaleSlice, type LocaleSlice } from './localeSlice';
import { createSaveSlice, type SaveSlice } from './saveSlice';
import { createSessionSlice, type SessionSlice } from './sessionSlice';

export type AppState = SessionSlice &
  DocumentsSlice &
  LocaleSlice &
  SaveSlice & {
    /** Back to the initial state (sign-out); the locale returns to the start-up one. */
    reset: () => void;
  };

export function createAppStore(initialLocale: Locale) {
  return create<AppState>()((...args) => ({
    ...createSessionSlice(...args),
    ...createDocumentsSlice(...args),
    ...createLocaleSlice(initialLocale)(...args),
    ...createSaveSlice(...args),
    reset: () => {
      args[0](initialData(initialLocale));
    },
  }));
}

export type AppStore = ReturnType<typeof createAppStore>;

/** The locale before anyone signs in: the page's `locale` query, else the browser's languages. */
export function startupLocale(win?: Pick<Window, 'location' | 'navigator'>): Locale {
  win ??= typeof window === 'undefined' ? undefined : window;
  if (win === undefined) return resolveLocale({});
  return resolveLocale({
    queryLocale: new URLSearchParams(win.location.search).get('locale'),
    browserLanguages: win.navigator.languages,
  });
}

/** The app's store. */
export const useAppStore: AppStore = createAppStore(startupLocale());

export type { AuthUser, DocumentsState, HeldDocument, LoginNotice, SaveStatus, Snapshot, StoreData } from './types';
