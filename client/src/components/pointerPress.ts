/**
 * Whether a pointer (mouse button, finger, pen) is pressed anywhere on the page. A click is a
 * press and a release on the same element: if the page moves between the two (an error line
 * that appears or goes when the press blurs a field), the click lands on empty space. Messages
 * that would move content wait for the release (useSteadyWhilePressed in FieldParts.tsx).
 */

let pressed = false;
let installed = false;
const listeners = new Set<() => void>();

function set(next: boolean): void {
  if (pressed === next) return;
  pressed = next;
  for (const listener of listeners) listener();
}

/** The release is taken after the click it ends has been dispatched (the next task). */
function release(): void {
  setTimeout(() => {
    set(false);
  }, 0);
}

function install(): void {
  if (installed || typeof document === 'undefined') return;
  installed = true;
  document.addEventListener(
    'pointerdown',
    () => {
      set(true);
    },
    true,
  );
  document.addEventListener('pointerup', release, true);
  document.addEventListener('pointercancel', release, true);
  // A release outside the window may never reach the page.
  window.addEventListener('blur', release);
}

export function subscribePointerPress(listener: () => void): () => void {
  install();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function isPointerPressed(): boolean {
  return pressed;
}
