import type { StateCreator } from 'zustand';
import type { Locale } from '../i18n/locale';
import type { AppState } from './index';

export interface LocaleSlice {
  locale: Locale;
  setLocale: (locale: Locale) => void;
}

export const createLocaleSlice =
  (initialLocale: Locale): StateCreator<AppState, [], [], LocaleSlice> =>
  (set) => ({
    locale: initialLocale,
    setLocale: (locale) => {
      set({ locale });
    },
  });
