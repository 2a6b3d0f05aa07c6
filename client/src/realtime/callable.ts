/**
 * One client for callable functions over both transports (docs/protocol.md "Callables"):
 * HTTP `POST /functions/{name}` with `{"data": ...}`, or the Socket.IO `call` event with an ack.
 * Same semantics as Firebase's httpsCallable: timeout -> deadline-exceeded, wire errors ->
 * FunctionsError, a reply that is not a JSON object or has no `data` -> internal.
 */
import { codeForHttpStatus, functionTimeoutMs, httpStatusForCode, retryHttpStatuses } from '../contract';
import { errorFromWire, FunctionsError, type FunctionsErrorCode } from './errors';
import { isRecord } from '../isRecord';

export type Transport = 'http' | 'socket';

export interface CallOptions {
  /** Default: http. */
  transport?: Transport;
  /** Overall time for all attempts; default contract.json functionTimeoutMs (70 s). */
  timeoutMs?: number;
  /**
   * Attempts in total for this call (default: the client's, 3). 1 for calls that must not
   * repeat on their own: a mail sent twice, a rate limit hit again by the retry itself.
   */
  maxAttempts?: number;
}

export interface CallableDeps {
  fetch: typeof globalThis.fetch;
  getToken: () => string | null;
  /** Emits `call` and resolves with the ack body; needed for transport 'socket'. */
  socketCall?: (name: string, data: unknown, timeoutMs: number) => Promise<unknown>;
  /** Prefix of `/functions/...`; default '' (same origin). */
  baseUrl?: string;
  /** Attempts in total, first one included. Default 3. */
  maxAttempts?: number;
  /** Backoff before retry n is base * 2^(n-1) plus up to base of jitter. Default 500 ms. */
  backoffBaseMs?: number;
  random?: () => number;
}

export type CallFunction = <T = unknown>(name: string, data?: unknown, options?: CallOptions) => Promise<T>;

type Outcome = { ok: true; data: unknown } | { ok: false; error: FunctionsError; retryable: boolean };

/** A successful reply body -> its `data`, exactly as the Firebase client judges it. */
export function dataFromReply(body: unknown): unknown {
  if (!isRecord(body)) throw new FunctionsError('internal', 'Response is not valid JSON object.');
  if (!('data' in body) || body.data === undefined) {
    throw new FunctionsError('internal', 'Response is missing data field.');
  }
  return body.data;
}

/** The socket has no HTTP status: judge a code by the status the contract gives it. */
function retryableCode(code: FunctionsErrorCode): boolean {
  const httpStatus = httpStatusForCode(code);
  return httpStatus !== undefined && retryHttpStatuses.has(httpStatus);
}

const deadlineExceeded = () => new FunctionsError('deadline-exceeded', 'deadline-exceeded');

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(deadlineExceeded());
      },
      { once: true },
    );
  });
}

export function createCallable(deps: CallableDeps): CallFunction {
  const maxAttempts = Math.max(1, deps.maxAttempts ?? 3);
  const backoffBaseMs = deps.backoffBaseMs ?? 500;
  const random = deps.random ?? Math.random;
  const baseUrl = deps.baseUrl ?? '';

  async function overHttp(name: string, data: unknown, signal: AbortSignal): Promise<Outcome> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    const token = deps.getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    let response: Response;
    try {
      response = await deps.fetch(`${baseUrl}/functions/${encodeURIComponent(name)}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ data: data ?? null }),
        credentials: 'include',
        signal,
      });
    } catch {
      if (signal.aborted) throw deadlineExceeded();
      // No answer at all (offline, connection reset): worth another attempt.
      return { ok: false, error: new FunctionsError('unavailable', 'Network request failed.'), retryable: true };
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      if (signal.aborted) throw deadlineExceeded();
      body = null; // not JSON
    }
    if (!response.ok) {
      const code = codeForHttpStatus(response.status);
      const error = errorFromWire(body, response.status) ?? new FunctionsError(code, code);
      return { ok: false, error, retryable: retryHttpStatuses.has(response.status) };
    }
    return { ok: true, data: dataFromReply(body) };
  }

  async function overSocket(name: string, data: unknown, remainingMs: number): Promise<Outcome> {
    if (!deps.socketCall) throw new FunctionsError('unimplemented', 'No socket transport is configured.');
    let ack: unknown;
    try {
      ack = await deps.socketCall(name, data ?? null, remainingMs);
    } catch (cause) {
      const error =
        cause instanceof FunctionsError ? cause : new FunctionsError('unavailable', 'The connection did not answer.');
      return { ok: false, error, retryable: true };
    }
    const error = errorFromWire(ack);
    if (error) return { ok: false, error, retryable: retryableCode(error.code) };
    return { ok: true, data: dataFromReply(ack) };
  }

  return async function callFunction<T>(name: string, data?: unknown, options: CallOptions = {}): Promise<T> {
    const timeoutMs = options.timeoutMs ?? functionTimeoutMs;
    const transport = options.transport ?? 'http';
    const attemptsAllowed = Math.max(1, options.maxAttempts ?? maxAttempts);
    const deadline = Date.now() + timeoutMs;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(deadlineExceeded());
      }, timeoutMs);
    });

    const attempts = async (): Promise<unknown> => {
      for (let attempt = 1; ; attempt += 1) {
        const outcome =
          transport === 'socket'
            ? await overSocket(name, data, Math.max(0, deadline - Date.now()))
            : await overHttp(name, data, controller.signal);
        if (outcome.ok) return outcome.data;
        if (!outcome.retryable || attempt >= attemptsAllowed) throw outcome.error;
        const delay = backoffBaseMs * 2 ** (attempt - 1) + random() * backoffBaseMs;
        // Never wait past the overall timeout: the last error is the honest answer then.
        if (Date.now() + delay >= deadline) throw outcome.error;
        await sleep(delay, controller.signal);
      }
    };

    try {
      return (await Promise.race([attempts(), timeout])) as T;
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  };
}
