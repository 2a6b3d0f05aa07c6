/**
 * Application start-up (docs/product.md "Behaviours across screens"), kept apart from main.tsx so it can be tested:
 * - the interface mounts once, on the first authentication-state change, never again;
 * - a lazily loaded chunk that fails to load: default handling prevented, a warning logged,
 *   the page reloaded (at most once in a short while, so a missing chunk cannot loop).
 */
import type { AuthListener } from './auth/session';
import type { AuthUser } from './store/types';

export interface StartDeps {
  onAuthStateChanged: (listener: AuthListener) => () => void;
  /** Records every auth-state change (store, socket). Runs before the first mount. */
  applyAuthState: (user: AuthUser | null) => void;
  /** Renders the interface; called exactly once. */
  mount: () => void;
}

export function startApp({ onAuthStateChanged, applyAuthState, mount }: StartDeps): () => void {
  let mounted = false;
  return onAuthStateChanged((user) => {
    applyAuthState(user);
    if (mounted) return;
    mounted = true;
    mount();
  });
}

export const PRELOAD_RELOAD_KEY = 'genecounsel.preloadReloadAt';
const RELOAD_GUARD_MS = 10_000;

export interface PreloadErrorDeps {
  reload: () => void;
  warn: (message: string, error?: unknown) => void;
  storage?: Pick<Storage, 'getItem' | 'setItem'> | null;
  now?: () => number;
}

/** Listens to Vite's `vite:preloadError` (a lazy chunk failed, e.g. after a deploy). */
export function installPreloadErrorHandler(target: EventTarget, deps: PreloadErrorDeps): () => void {
  const now = deps.now ?? Date.now;
  const listener = (event: Event) => {
    const last = Number(deps.storage?.getItem(PRELOAD_RELOAD_KEY) ?? Number.NaN);
    if (Number.isFinite(last) && now() - last < RELOAD_GUARD_MS) {
      // Reloading did not help: let the error reach the route's error page instead of looping.
      deps.warn('A part of the page failed to load again after a reload', (event as Event & { payload?: unknown }).payload);
      return;
    }
    event.preventDefault();
    deps.warn('A part of the page failed to load; reloading', (event as Event & { payload?: unknown }).payload);
    try {
      deps.storage?.setItem(PRELOAD_RELOAD_KEY, String(now()));
    } catch {
      // Without storage there is no loop guard, but the reload is still the right first answer.
    }
    deps.reload();
  };
  target.addEventListener('vite:preloadError', listener);
  return () => {
    target.removeEventListener('vite:preloadError', listener);
  };
}

/**
 * What the page says when even its first translations could not load (offline at the first
 * visit, a deploy removed the chunk): in both languages, as no translation is there to pick
 * one, with a button to try again. The only words of the app outside client/src/locales,
 * because they are what failed to arrive.
 */
export const START_FAILURE = {
  ja: 'ページを読み込めませんでした。接続を確かめて、もう一度お試しください。',
  en: 'The page could not load. Check your connection and try again.',
  retry: '再読み込み / Reload',
} as const;

export function showStartFailure(container: HTMLElement, reload: () => void): void {
  const doc = container.ownerDocument;
  const notice = doc.createElement('main');
  notice.setAttribute('role', 'alert');
  for (const language of ['ja', 'en'] as const) {
    const line = doc.createElement('p');
    line.lang = language;
    line.textContent = START_FAILURE[language];
    notice.append(line);
  }
  const retry = doc.createElement('button');
  retry.type = 'button';
  retry.textContent = START_FAILURE.retry;
  retry.addEventListener('click', reload);
  notice.append(retry);
  container.replaceChildren(notice);
}
