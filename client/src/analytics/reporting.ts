/**
 * Reporting the window's unhandled errors through the analytics client (analytics.ts), apart
 * from it: this part starts with the page, the client loads after the first screen.
 */
import type { Analytics } from './analytics';

/** At most this many exception events per page load (the default of `maxExceptionsPerPage`). */
export const MAX_EXCEPTIONS_PER_PAGE = 20;

/**
 * Sends the window's unhandled errors (`error`: fatal) and unhandled promise rejections (not
 * fatal) as exception events. Returns the function that stops it.
 */
export function installErrorReporting(target: EventTarget, analytics: Pick<Analytics, 'logException'>): () => void {
  const onError = (event: Event) => {
    const errorEvent = event as ErrorEvent;
    const thrown: unknown = errorEvent.error;
    analytics.logException(thrown ?? errorEvent.message, true);
  };
  const onRejection = (event: Event) => {
    analytics.logException((event as PromiseRejectionEvent).reason, false);
  };
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}

/**
 * Exception reports for the time before the analytics client is there: it loads after the
 * first screen (main.tsx), with the callable client it sends through, which a signed-out first
 * screen does not need (docs/benchmarks.md "Client first load"). Until `attach`, reports wait,
 * in order, at most as many as a page may send; then they go to the client, which drops
 * repeats and throttles as usual.
 */
export function reportsUntilLoaded(): Pick<Analytics, 'logException'> & { attach: (loaded: Analytics) => void } {
  let client: Analytics | null = null;
  const waiting: { error: unknown; fatal: boolean }[] = [];
  return {
    logException(error, fatal) {
      if (client !== null) return client.logException(error, fatal);
      if (waiting.length >= MAX_EXCEPTIONS_PER_PAGE) return false;
      waiting.push({ error, fatal });
      return true;
    },
    attach(loaded) {
      client = loaded;
      for (const report of waiting.splice(0)) loaded.logException(report.error, report.fatal);
    },
  };
}
