import { describe, expect, it, vi } from 'vitest';
import { FunctionsError } from '../realtime/errors';
import {
  EMAIL_FOR_SIGN_IN_KEY,
  emailForSignIn,
  forgetEmailForSignIn,
  isLinkInvalid,
  rememberEmailForSignIn,
  signInEntry,
} from './emailLink';
import { AuthClient, parseSessionReply } from './session';
import { confirmEmailLink } from './signIn';

const urlOf = (input: RequestInfo | URL) => (input instanceof Request ? input.url : input.toString());

function jsonResponse(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function setup(confirmReply: Response) {
  let token: string | null = null;
  let signedIn = false;
  const fetch = vi.fn<typeof globalThis.fetch>(async (input) => {
    const url = urlOf(input);
    if (url === '/auth/confirm') {
      if (confirmReply.ok) signedIn = true;
      return confirmReply;
    }
    if (url === '/auth/sign-out') {
      signedIn = false;
      return jsonResponse({ data: null });
    }
    return jsonResponse({ data: signedIn ? { uid: 'u1', email: 'hanako@example.com', role: 'client', clinicId: null } : null });
  });
  const auth = new AuthClient({ fetch, getToken: () => token, setToken: (t) => (token = t) });
  return { auth, fetch, token: () => token };
}

describe('e-mail-link sign-in', () => {
  it('confirms {email, token} (not wrapped in data), then reports the signed-in user', async () => {
    const { auth, fetch, token } = setup(jsonResponse({ data: { uid: 'u1', email: 'hanako@example.com', token: 'bearer-1' } }));
    const seen: (string | null)[] = [];
    auth.onAuthStateChanged((user) => seen.push(user?.uid ?? null));
    await auth.start();
    const user = await confirmEmailLink(auth, 'hanako@example.com', 'link-token');
    expect(user).toEqual({ uid: 'u1', email: 'hanako@example.com', role: 'client', clinicId: null });
    expect(seen).toEqual([null, 'u1']);
    const confirm = fetch.mock.calls.find(([input]) => urlOf(input) === '/auth/confirm');
    expect(confirm?.[1]?.method).toBe('POST');
    expect(confirm?.[1]?.credentials).toBe('include');
    expect(JSON.parse(confirm?.[1]?.body as string)).toEqual({ email: 'hanako@example.com', token: 'link-token' });
    expect(token()).toBe('bearer-1');
  });

  it('rejects a used, expired or mismatched link with reason link-invalid', async () => {
    const { auth } = setup(
      jsonResponse(
        { error: { status: 'INVALID_ARGUMENT', message: 'no longer valid', details: { reason: 'link-invalid' } } },
        400,
      ),
    );
    const error: unknown = await confirmEmailLink(auth, 'hanako@example.com', 'used').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FunctionsError);
    expect(isLinkInvalid(error)).toBe(true);
    expect(auth.currentUser).toBeNull();
  });

  it('tells other refusals apart from an invalid link', async () => {
    const { auth } = setup(jsonResponse({ error: { status: 'UNAVAILABLE', message: 'down' } }, 503));
    const error: unknown = await confirmEmailLink(auth, 'hanako@example.com', 'x').catch((e: unknown) => e);
    expect((error as FunctionsError).code).toBe('unavailable');
    expect(isLinkInvalid(error)).toBe(false);
    expect(isLinkInvalid(new FunctionsError('invalid-argument', 'bad', { fields: { email: 'Invalid email address.' } }))).toBe(false);
  });

  it('signs out here before the server answers, and revokes the session there', async () => {
    const { auth, fetch, token } = setup(jsonResponse({ data: { uid: 'u1', email: 'hanako@example.com', token: 'bearer-1' } }));
    await confirmEmailLink(auth, 'hanako@example.com', 'link-token');
    const seen: (string | null)[] = [];
    auth.onAuthStateChanged((user) => seen.push(user?.uid ?? null));
    await Promise.resolve();
    const done = auth.signOut();
    expect(seen).toEqual(['u1', null]);
    await done;
    const signOut = fetch.mock.calls.find(([input]) => urlOf(input) === '/auth/sign-out');
    expect(new Headers(signOut?.[1]?.headers).get('Authorization')).toBe('Bearer bearer-1');
    expect(signOut?.[1]?.credentials).toBe('include');
    expect(token()).toBeNull();
  });
});

describe('the address remembered on this device', () => {
  it('keeps the address and the clinic/service until forgotten', () => {
    expect(emailForSignIn()).toBeNull();
    rememberEmailForSignIn('hanako@example.com', { clinicId: 'demo-clinic', serviceId: 'pgt' });
    expect(localStorage.getItem(EMAIL_FOR_SIGN_IN_KEY)).toBe('hanako@example.com');
    expect(emailForSignIn()).toBe('hanako@example.com');
    expect(signInEntry()).toEqual({ clinicId: 'demo-clinic', serviceId: 'pgt' });
    forgetEmailForSignIn();
    expect(emailForSignIn()).toBeNull();
    expect(signInEntry()).toEqual({});
  });

  it('ignores a damaged entry', () => {
    localStorage.setItem('genecounsel.signInEntry', '{not json');
    expect(signInEntry()).toEqual({});
    localStorage.setItem('genecounsel.signInEntry', '{"clinicId": 5, "serviceId": "pgt"}');
    expect(signInEntry()).toEqual({ serviceId: 'pgt' });
  });
});

describe('parseSessionReply: staff fields', () => {
  it("reads a counselor's counselorId and the second factor; leaves them out when absent or unknown", () => {
    expect(
      parseSessionReply({
        data: { uid: 's2', email: 'sato@demo-clinic.example', role: 'counselor', clinicId: 'demo-clinic', counselorId: 'c-sato', secondFactor: 'enrol' },
      }),
    ).toEqual({ uid: 's2', email: 'sato@demo-clinic.example', role: 'counselor', clinicId: 'demo-clinic', counselorId: 'c-sato', secondFactor: 'enrol' });
    expect(
      parseSessionReply({ data: { uid: 's1', email: 'staff@demo-clinic.example', role: 'clinic_staff', clinicId: 'demo-clinic', secondFactor: 'maybe' } }),
    ).toEqual({ uid: 's1', email: 'staff@demo-clinic.example', role: 'clinic_staff', clinicId: 'demo-clinic' });
  });
});
