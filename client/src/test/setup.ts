import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// Screens are loaded lazily: their first import can take a while on a busy machine.
configure({ asyncUtilTimeout: 3000 });

// jsdom does not implement scrolling; the app scrolls to the top on every navigation.
window.scrollTo = vi.fn();
Element.prototype.scrollIntoView = vi.fn();

// jsdom has no CSS.escape; react-aria-components find their list items with it.
if (typeof globalThis.CSS === 'undefined') Object.assign(globalThis, { CSS: {} });
if (typeof CSS.escape !== 'function') CSS.escape = (value: string) => value.replace(/[^\w-]/g, (ch) => `\\${ch}`);

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
});
