/**
 * Navigation for code outside the React tree (the after-sign-in bindings send a person whose
 * session ended to the login screen). The declarative router has no router object to call, so
 * the frame lends its `navigate` here while it is mounted.
 */
import { useEffect } from 'react';
import { useNavigate, type NavigateFunction } from 'react-router';

let current: NavigateFunction | null = null;

/** Rendered once inside the router (App.tsx). */
export function OutsideNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    current = navigate;
    return () => {
      if (current === navigate) current = null;
    };
  }, [navigate]);
  return null;
}

/**
 * Replaces the current page with `path`. Before the interface is mounted, the address alone is
 * replaced: the router reads it when it starts.
 */
export function replaceWith(path: string): void {
  if (current !== null) void current(path, { replace: true });
  else window.history.replaceState(null, '', path);
}
