import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/** Where focus goes after a navigation: the page's `<h1>` (`tabIndex={-1}`), else `<main>`. */
export function navigationFocusTarget(main: HTMLElement): HTMLElement {
  return main.querySelector<HTMLElement>('h1[tabindex="-1"]') ?? main;
}

/**
 * Whether focus should move to the new page after a navigation: it was lost (the focused
 * control went away with the old page, so focus fell back to `<body>`), or it stayed in the
 * frame (the header or footer link just followed). Not when the new page or a dialog took it.
 */
export function focusNeedsMoving(active: Element | null, main: HTMLElement): boolean {
  if (active === null || active === active.ownerDocument.body) return true;
  if (main.contains(active)) return false;
  return active.closest('[role="dialog"], [role="alertdialog"]') === null;
}

/**
 * After an in-app navigation to another page, focus goes to the new page's title, so that a
 * keyboard user goes on from the top of the new content (not from `<body>`, where the browser
 * leaves focus when the control that had it is removed) and a screen reader announces the
 * page. Not at the first page of a load (the browser's own start), not on a `#hash` (the
 * target is scrolled to), never scrolling (ScrollToTop decides that).
 */
export function NavigationFocus() {
  const { pathname, hash } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    if (hash.length > 1) return;
    const main = document.getElementById('main');
    if (!main || !focusNeedsMoving(document.activeElement, main)) return;
    navigationFocusTarget(main).focus({ preventScroll: true });
  }, [pathname, hash]);
  return null;
}
