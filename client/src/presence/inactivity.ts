/**
 * The inactivity countdown (docs/product.md "Behaviours across screens" and "Constants and limits", docs/protocol.md "Presence and inactivity"),
 * without React or DOM: a deadline `limitSeconds` after the last activity, a warning phase
 * under `warningSeconds`, and the end at zero.
 *
 * - Local activity (keyboard, click, mouse) moves the deadline and is told to the server at
 *   most once per `throttleMs`, the last one of a burst included (a trailing send), with the
 *   step the person is on.
 * - While the warning shows, only `continueSession()` (its "Continue" button) counts: a mouse
 *   moved by chance, or the keys a screen reader user presses to read the dialog, must not
 *   close it under them.
 * - The server's `session` events keep every tab on one countdown: `active` (any tab's activity)
 *   restarts it at `secondsLeft`, `warning` brings it down to the server's `secondsLeft` (the
 *   server decides when the session ends), `expired` ends it at once.
 *
 * Timers: one timeout to the moment the warning starts, then one per displayed second; the
 * deadline is a clock time, so a tab whose timers were slowed in the background still ends on
 * time.
 */
import { contract } from '../contract';
import type { SessionNotice } from '../realtime/events';
import { observed } from './observed';

export type InactivityPhase = 'active' | 'warning' | 'expired';

export interface InactivityState {
  phase: InactivityPhase;
  /** Whole seconds left (rounded up); exact in the warning phase, refreshed lazily before. */
  secondsLeft: number;
}

export type ExpiryReason = 'timeout' | 'server';

/** What the countdown tells and asks of the page; given at `start`. */
export interface InactivityHandlers {
  /** Tells the server (the realtime client's `activity`). */
  send: (step: string | undefined) => void;
  /** The step the person is on now (sent with the activity). */
  step: () => string | undefined;
  /** The countdown reached zero (`timeout`) or the server ended the session (`server`). */
  onExpire: (reason: ExpiryReason) => void;
}

export interface InactivityOptions {
  limitSeconds?: number;
  warningSeconds?: number;
  /** At most one `activity` per this many ms; default `ACTIVITY_THROTTLE_MS`. */
  throttleMs?: number;
  /**
   * A server `warning` this soon after an `activity` was sent crossed it on the wire (the
   * server's `active` answer follows): ignored. Default 5 000 ms.
   */
  crossingMs?: number;
  now?: () => number;
}

export interface InactivityMonitor {
  /** Starts counting from the full limit (signed in). */
  start: (handlers: InactivityHandlers) => void;
  stop: () => void;
  /** Keyboard, click or mouse activity on the page. */
  activity: () => void;
  /** The warning's "Continue": always counts. */
  continueSession: () => void;
  /** A `session` event of the server. */
  session: (notice: SessionNotice) => void;
  getState: () => InactivityState;
  subscribe: (listener: () => void) => () => void;
}

/**
 * The app's one throttle of `activity`: at most one per 10 s (the server writes the session's
 * last activity no more often), the last of a burst sent when the 10 s are up. The realtime
 * client passes every call on (or keeps it for the reconnect while the socket is down).
 */
export const ACTIVITY_THROTTLE_MS = 10_000;

export function createInactivityMonitor(options: InactivityOptions = {}): InactivityMonitor {
  const limitMs = (options.limitSeconds ?? contract.inactivityLogoutSeconds) * 1000;
  const warningMs = (options.warningSeconds ?? contract.inactivityWarningSeconds) * 1000;
  const throttleMs = options.throttleMs ?? ACTIVITY_THROTTLE_MS;
  const crossingMs = options.crossingMs ?? 5_000;
  const now = options.now ?? (() => Date.now());

  let running = false;
  let handlers: InactivityHandlers | null = null;
  let deadline = 0;
  const store = observed<InactivityState>({ phase: 'active', secondsLeft: limitMs / 1000 });
  const publish = store.publish;
  let tick: ReturnType<typeof setTimeout> | null = null;
  let sendTimer: ReturnType<typeof setTimeout> | null = null;
  let lastSent = -Infinity;
  let sendPending = false;

  function clearTimers(): void {
    if (tick !== null) clearTimeout(tick);
    if (sendTimer !== null) clearTimeout(sendTimer);
    tick = null;
    sendTimer = null;
  }

  function expire(reason: ExpiryReason): void {
    if (!running || store.get().phase === 'expired') return;
    clearTimers();
    sendPending = false;
    publish({ phase: 'expired', secondsLeft: 0 });
    handlers?.onExpire(reason);
  }

  /** Brings the state up to the clock and sets the next wake-up. */
  function evaluate(): void {
    if (tick !== null) clearTimeout(tick);
    tick = null;
    if (!running || store.get().phase === 'expired') return;
    const left = deadline - now();
    if (left <= 0) {
      expire('timeout');
      return;
    }
    const secondsLeft = Math.ceil(left / 1000);
    if (left > warningMs) {
      // Only the phase matters to the page here; the number is refreshed at the next wake-up.
      publish({ phase: 'active', secondsLeft });
      tick = setTimeout(evaluate, left - warningMs);
      return;
    }
    publish({ phase: 'warning', secondsLeft });
    // Wake when the displayed number goes down (or at zero).
    tick = setTimeout(evaluate, left - (secondsLeft - 1) * 1000);
  }

  function flushSend(): void {
    sendTimer = null;
    if (!running || !sendPending || handlers === null) return;
    sendPending = false;
    lastSent = now();
    handlers.send(handlers.step());
  }

  function noteActivity(): void {
    deadline = now() + limitMs;
    sendPending = true;
    if (sendTimer !== null) return; // the trailing send carries it
    const wait = lastSent + throttleMs - now();
    if (wait <= 0) flushSend();
    else sendTimer = setTimeout(flushSend, wait);
  }

  return {
    start(given) {
      if (running) return;
      running = true;
      handlers = given;
      lastSent = -Infinity;
      sendPending = false;
      deadline = now() + limitMs;
      store.replace({ phase: 'active', secondsLeft: limitMs / 1000 });
      evaluate();
    },

    stop() {
      running = false;
      handlers = null;
      clearTimers();
      sendPending = false;
      publish({ phase: 'active', secondsLeft: limitMs / 1000 });
    },

    activity() {
      if (!running || store.get().phase !== 'active') return;
      noteActivity();
      // No re-evaluation: the next wake-up sees the later deadline and sleeps again.
    },

    continueSession() {
      if (!running || store.get().phase === 'expired') return;
      noteActivity();
      evaluate();
    },

    session(notice) {
      if (!running || store.get().phase === 'expired') return;
      if (notice.state === 'expired') {
        expire('server');
        return;
      }
      const serverDeadline = now() + Math.max(0, notice.secondsLeft) * 1000;
      if (notice.state === 'active') {
        deadline = serverDeadline;
      } else {
        if (now() - lastSent < crossingMs) return;
        deadline = Math.min(deadline, serverDeadline);
      }
      evaluate();
    },

    getState: store.get,
    subscribe: store.subscribe,
  };
}
