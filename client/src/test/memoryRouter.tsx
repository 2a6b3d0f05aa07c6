/**
 * The one way tests put something in a router: react-router's `MemoryRouter` (the app's
 * `BrowserRouter` in memory) at `initialEntries`, with a handle that reads the current location
 * and navigates, as the data router's object did (`router.state.location`, `router.navigate`).
 */
import { useLayoutEffect, type ReactElement, type ReactNode } from 'react';
import { MemoryRouter, useLocation, useNavigate, type Location, type NavigateFunction, type NavigateOptions, type To } from 'react-router';

export interface TestRouter {
  /** The location last rendered. */
  readonly state: { readonly location: Location };
  /** A path, or a step back or forward in the history (-1). */
  navigate: (to: To | number, options?: NavigateOptions) => Promise<void>;
}

export function inMemoryRouter(children: ReactNode, initialEntries: string[] = ['/']): { element: ReactElement; router: TestRouter } {
  let location: Location | null = null;
  let navigate: NavigateFunction | null = null;
  const router: TestRouter = {
    get state() {
      if (location === null) throw new Error('the router has not rendered yet');
      return { location };
    },
    async navigate(to, options) {
      if (navigate === null) throw new Error('the router has not rendered yet');
      await (typeof to === 'number' ? navigate(to) : navigate(to, options));
    },
  };
  function Probe() {
    const current = useLocation();
    const go = useNavigate();
    useLayoutEffect(() => {
      location = current;
      navigate = go;
    }, [current, go]);
    return null;
  }
  const element = (
    <MemoryRouter initialEntries={initialEntries}>
      <Probe />
      {children}
    </MemoryRouter>
  );
  return { element, router };
}
