import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useAppStore } from '../store';
import { isLocale, localeFromTag } from './locale';

/**
 * Login screens take `?locale=`: it sets the language unless the user record has a valid one
 * (docs/product.md "The booking flow" order: user record, query, browser, ja).
 */
export function useQueryLocale(): void {
  const [search] = useSearchParams();
  const queryLocale = localeFromTag(search.get('locale'));
  const userLocale = useAppStore((state) => state.documents.user?.data?.locale);
  const setLocale = useAppStore((state) => state.setLocale);
  useEffect(() => {
    if (queryLocale && !isLocale(userLocale)) setLocale(queryLocale);
  }, [queryLocale, userLocale, setLocale]);
}
