import { afterEach, describe, expect, it, vi } from 'vitest';
import { contract } from '../contract';
import { createCallable, type CallableDeps } from './callable';
import { errorMessageKey, FunctionsError } from './errors';

type FetchMock = ReturnType<typeof vi.fn<typeof globalThis.fetch>>;

function reply(body: unknown, status = 200) {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function setup(responses: (Response | Error)[], extra: Partial<CallableDeps> = {}) {
  const fetch: FetchMock = vi.fn<typeof globalThis.fetch>(() => {
    const next = responses.shift();
    if (next === undefined) throw new Error('unexpected extra request');
    return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
  });
  const call = createCallable({ fetch, getToken: () => 'tok-1', backoffBaseMs: 1, random: () => 0, ...extra });
  return { fetch, call };
}

async function failure(promise: Promise<unknown>): Promise<FunctionsError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof FunctionsError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('callFunction over HTTP', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('POSTs {"data": ...} to /functions/{name} with the bearer token and cookies, and returns data', async () => {
    const { fetch, call } = setup([reply({ data: { appointmentId: 'a1' } })]);
    await expect(call('appointment-create', { clinicId: 'demo-clinic' })).resolves.toEqual({ appointmentId: 'a1' });
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/functions/appointment-create');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('include');
    expect(JSON.parse(init?.body as string)).toEqual({ data: { clinicId: 'demo-clinic' } });
    const headers = new Headers(init?.headers);
    expect(headers.get('Authorization')).toBe('Bearer tok-1');
    expect(headers.get('Content-Type')).toBe('application/json');
  });

  it('sends data null when there is no input and no Authorization without a token', async () => {
    const { fetch, call } = setup([reply({ data: null })], { getToken: () => null });
    await expect(call('appointment-create')).resolves.toBeNull();
    const init = fetch.mock.calls[0]?.[1];
    expect(JSON.parse(init?.body as string)).toEqual({ data: null });
    expect(new Headers(init?.headers).has('Authorization')).toBe(false);
  });

  it.each(Object.entries(contract.errorStatuses))('maps wire status %s (HTTP %i) to its code', async (status, http) => {
    const { call } = setup([reply({ error: { status, message: 'told by server', details: { field: 'x' } } }, http)], {
      maxAttempts: 1,
    });
    const error = await failure(call('clinic-read', { id: 'c' }));
    expect(error.code).toBe(status.toLowerCase().replaceAll('_', '-'));
    expect(error.message).toBe('told by server');
    expect(error.details).toEqual({ field: 'x' });
    expect(errorMessageKey(error)).toBe(`errors:${error.code}`);
  });

  it('maps an unknown wire status from the HTTP status', async () => {
    const { call } = setup([reply({ error: { status: 'TEAPOT', message: 'odd' } }, 404)]);
    const error = await failure(call('clinic-read'));
    expect(error.code).toBe('not-found');
    expect(error.message).toBe('odd');
  });

  it('maps a non-JSON error body from the HTTP status, else to unknown', async () => {
    const { call } = setup([reply('<html>Forbidden</html>', 403), reply('nope', 418)]);
    expect((await failure(call('clinic-read'))).code).toBe('permission-denied');
    expect((await failure(call('clinic-read'))).code).toBe('unknown');
  });

  it('rejects a reply that is not a JSON object: internal, "Response is not valid JSON object."', async () => {
    for (const body of ['not json at all', '[1,2]', '"text"', 'null']) {
      const { call } = setup([reply(body)]);
      const error = await failure(call('service-read'));
      expect(error.code).toBe('internal');
      expect(error.message).toBe('Response is not valid JSON object.');
    }
  });

  it('rejects a JSON object without data: internal, "Response is missing data field."', async () => {
    const { call } = setup([reply({ result: 1 })]);
    const error = await failure(call('service-read'));
    expect(error.code).toBe('internal');
    expect(error.message).toBe('Response is missing data field.');
  });

  it('retries a 503 and returns the later success', async () => {
    const { fetch, call } = setup([
      reply({ error: { status: 'UNAVAILABLE', message: 'busy' } }, 503),
      reply({ data: { ok: 1 } }),
    ]);
    await expect(call('vacancies-read', {})).resolves.toEqual({ ok: 1 });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('retries 408 and 429 too, and a dropped connection', async () => {
    const { fetch, call } = setup([
      reply('timeout', 408),
      reply({ error: { status: 'RESOURCE_EXHAUSTED', message: 'slow down' } }, 429),
      reply({ data: 'third time' }),
    ]);
    await expect(call('vacancies-read')).resolves.toBe('third time');
    expect(fetch).toHaveBeenCalledTimes(3);
    const dropped = setup([new TypeError('Failed to fetch'), reply({ data: 1 })]);
    await expect(dropped.call('vacancies-read')).resolves.toBe(1);
  });

  it('does not retry a 400', async () => {
    const { fetch, call } = setup([reply({ error: { status: 'INVALID_ARGUMENT', message: 'bad email' } }, 400)]);
    const error = await failure(call('sendEmail-authLink', { email: 'x' }));
    expect(error.code).toBe('invalid-argument');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('makes one attempt only when the call asks for maxAttempts 1 (a 429 is not retried)', async () => {
    const { fetch, call } = setup([reply({ error: { status: 'RESOURCE_EXHAUSTED', message: 'slow down' } }, 429)]);
    const error = await failure(call('sendEmail-authLink', { email: 'a@example.com' }, { maxAttempts: 1 }));
    expect(error.code).toBe('resource-exhausted');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('gives up after 3 attempts in total with the last error', async () => {
    const { fetch, call } = setup([reply('a', 502), reply('b', 500), reply({ error: { status: 'UNAVAILABLE', message: 'down' } }, 503)]);
    const error = await failure(call('vacancies-read'));
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(error.code).toBe('unavailable');
    expect(error.message).toBe('down');
  });

  it('waits longer before each retry (exponential backoff with jitter)', async () => {
    vi.useFakeTimers();
    const { fetch, call } = setup([reply('a', 503), reply('b', 503), reply({ data: 'ok' })], {
      backoffBaseMs: 1000,
      random: () => 0.5,
    });
    const result = call('vacancies-read');
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1499); // first delay: 1000 + 0.5 * 1000
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2499); // second delay: 2000 + 0.5 * 1000
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toBe('ok');
  });

  it('times out after contract.json functionTimeoutMs with deadline-exceeded', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    const fetch = vi.fn<typeof globalThis.fetch>(
      (_input, init) =>
        new Promise((_resolve, reject) => {
          signal = init?.signal ?? undefined;
          signal?.addEventListener('abort', () => {
            reject(new DOMException('aborted', 'AbortError'));
          });
        }),
    );
    const call = createCallable({ fetch, getToken: () => null });
    const outcome = failure(call('vacancies-read'));
    await vi.advanceTimersByTimeAsync(contract.functionTimeoutMs - 1);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error.code).toBe('deadline-exceeded');
    expect(signal?.aborted).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('never retries past the overall timeout', async () => {
    vi.useFakeTimers();
    const { fetch, call } = setup([reply('a', 503), reply('b', 503)], { backoffBaseMs: 40_000, random: () => 0 });
    const outcome = failure(call('vacancies-read'));
    await vi.advanceTimersByTimeAsync(40_000);
    // The second delay (80 s) would end after the 70 s deadline: the last error is returned.
    const error = await outcome;
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(error.code).toBe('unavailable');
  });
});

describe('callFunction over the socket', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('emits call {name, data} and reads the ack like an HTTP reply', async () => {
    vi.useFakeTimers(); // the clock stands still: the time left is the whole timeout
    const socketCall = vi.fn<NonNullable<CallableDeps['socketCall']>>(() => Promise.resolve({ data: { sent: true } }));
    const { fetch, call } = setup([], { socketCall });
    await expect(call('sendEmail-authLink', { email: 'a@example.com' }, { transport: 'socket' })).resolves.toEqual({
      sent: true,
    });
    expect(socketCall).toHaveBeenCalledWith('sendEmail-authLink', { email: 'a@example.com' }, contract.functionTimeoutMs);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('maps an error ack and retries only retryable codes', async () => {
    const acks: unknown[] = [
      { error: { status: 'UNAVAILABLE', message: 'restarting' } },
      { error: { status: 'ABORTED', message: 'slot taken' } },
    ];
    const socketCall = vi.fn(() => Promise.resolve(acks.shift()));
    const { call } = setup([], { socketCall });
    const error = await failure(call('appointment-hold', {}, { transport: 'socket' }));
    expect(error.code).toBe('aborted');
    expect(error.message).toBe('slot taken');
    expect(socketCall).toHaveBeenCalledTimes(2);
  });

  it('applies the same reply checks as HTTP', async () => {
    const { call } = setup([], { socketCall: () => Promise.resolve({}) });
    expect((await failure(call('x', null, { transport: 'socket' }))).message).toBe('Response is missing data field.');
  });
});

describe('errorMessageKey', () => {
  it('names errors:unknown for anything that is not a FunctionsError', () => {
    expect(errorMessageKey(new Error('boom'))).toBe('errors:unknown');
    expect(errorMessageKey(new FunctionsError('permission-denied', 'no'))).toBe('errors:permission-denied');
  });
});
