import { lazy, useState, type ComponentType, type ReactElement } from 'react';

export interface LazyScreen {
  /** What the route renders. */
  element: ReactElement;
  /** Starts loading (once; what failed stays failed, as with `React.lazy`). */
  load: () => Promise<ComponentType>;
}

/**
 * A screen loaded on first use, like `React.lazy`, except that a screen already loaded renders
 * at once. `React.lazy` suspends on its first render even then, and React 19 holds back what a
 * Suspense fallback stood for until 300 ms after that fallback showed: the first screen,
 * loaded while the session is read (router.tsx `preloadScreens`), would pay that wait
 * (docs/benchmarks.md "Client first load"). Not loaded yet, it is a `React.lazy` of the same
 * load: the frame's Suspense shows Loading, or a navigation keeps the page before.
 */
export function lazyScreen(importScreen: () => Promise<ComponentType>): LazyScreen {
  let loaded: ComponentType | null = null;
  let loading: Promise<ComponentType> | null = null;
  const load = () => {
    loading ??= importScreen().then((component) => (loaded = component));
    return loading;
  };
  const Lazy = lazy(async () => ({ default: await load() }));
  function Screen() {
    // Chosen once per mount: switching later would mount the screen again and lose its state.
    const [Loaded] = useState(() => loaded);
    return Loaded ? <Loaded /> : <Lazy />;
  }
  return { element: <Screen />, load };
}
