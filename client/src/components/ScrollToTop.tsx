import { useEffect } from 'react';
import { useLocation } from 'react-router';

/**
 * Every navigation to another page starts at its top (docs/product.md "Behaviours across screens"), or at the element a
 * `#hash` names (e.g. /faq#receiving-email).
 */
export function ScrollToTop() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    const target = hash.length > 1 ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [pathname, hash]);
  return null;
}
