import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** Every navigation to another page starts at its top (spec section 2). */
export function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}
