import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMAIL_FOR_SIGN_IN_KEY, rememberEmailForSignIn } from '../auth/emailLink';
import { auth } from '../auth/session';
import { bindAuthToStore, fakeServer, json, refuse, reply, type FakeServer } from '../test/fakeServer';
import { renderApp } from '../test/renderApp';

const TOKEN = 'k3Jd9fQ2xLm8Rt5vWz1yBc4nHs7pGa0eUi6oTq2rYw';

const signedIn = (email: string) => reply({ uid: 'u1', email, token: 'bearer-1' });
const linkInvalid = () =>
  refuse('INVALID_ARGUMENT', 400, 'The authentication link is no longer valid. Please start a new session.', {
    reason: 'link-invalid',
  });

let view: ReturnType<typeof renderApp> | undefined;
let server: FakeServer;

beforeEach(async () => {
  server = fakeServer({
    '/functions/analytics-log': () => reply({ logged: true }),
    '/functions/sendEmail-authLink': () => reply({ sent: true }),
  });
  await bindAuthToStore();
});

afterEach(async () => {
  view?.unmount();
  view = undefined;
  await auth.signOut();
});

const location = () => `${view?.router.state.location.pathname ?? ''}${view?.router.state.location.search ?? ''}`;
const confirmations = () => server.requests.filter((r) => r.url === '/auth/confirm');

describe('confirmation on the device that asked for the link', () => {
  it('signs in at once with the remembered address, logs the login, and goes to the first step', async () => {
    rememberEmailForSignIn('hanako@example.com', { clinicId: 'demo-clinic', serviceId: 'pgt' });
    let answer: (response: Response) => void = () => undefined;
    server.on('/auth/confirm', () => new Promise<Response>((resolve) => (answer = resolve)));
    view = renderApp(`/login-confirmation?token=${TOKEN}`);

    expect((await screen.findByText('Signing you in…')).getAttribute('role')).toBe('status');
    await waitFor(() => {
      expect(confirmations()).toHaveLength(1);
    });
    answer(signedIn('hanako@example.com'));

    await screen.findByRole('heading', { level: 1, name: 'Health care provider code' });
    expect(location()).toBe('/b/clinic');
    expect(confirmations()[0]).toEqual({
      url: '/auth/confirm',
      method: 'POST',
      body: { email: 'hanako@example.com', token: TOKEN },
    });
    expect(server.calls('analytics-log')).toEqual([
      { name: 'login', params: { method: 'email-link-authentication', hostname: window.location.hostname } },
    ]);
    expect(localStorage.getItem(EMAIL_FOR_SIGN_IN_KEY)).toBeNull();
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();
  });

  it('continues to ?next= when the link carries it', async () => {
    rememberEmailForSignIn('hanako@example.com', {});
    server.on('/auth/confirm', () => signedIn('hanako@example.com'));
    view = renderApp(`/login-confirmation?token=${TOKEN}&next=%2Fb%2Freview`);
    await screen.findByRole('heading', { level: 1, name: 'Review and submit' });
    expect(location()).toBe('/b/review');
  });
});

describe('confirmation on another device', () => {
  it.each([
    ['en', 'E-mail address', 'Confirm and sign in', 'Please re-enter your e-mail address.', 'Health care provider code'],
    ['ja', 'メールアドレス', '確認してログイン', 'メールアドレスをもう一度入力してください。', '医療機関コード'],
  ] as const)('asks to re-enter the address (%s), then signs in with it', async (locale, label, button, prompt, next) => {
    server.on('/auth/confirm', () => signedIn('hanako@example.com'));
    view = renderApp(`/login-confirmation?token=${TOKEN}`, { locale });
    await screen.findByText(prompt);
    expect(confirmations()).toEqual([]);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(label), 'Hanako@Example.com ');
    await user.click(screen.getByRole('button', { name: button }));
    await screen.findByRole('heading', { level: 1, name: next });
    expect(confirmations()[0]?.body).toEqual({ email: 'Hanako@Example.com', token: TOKEN });
    expect(server.calls('analytics-log')).toHaveLength(1);
  });

  it('keeps the e-mail rule on the re-entered address', async () => {
    view = renderApp(`/login-confirmation?token=${TOKEN}`);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('E-mail address'), 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Confirm and sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid email address.');
    expect(confirmations()).toEqual([]);
  });
});

describe('another address than the link\'s', () => {
  const mismatch = () =>
    refuse('INVALID_ARGUMENT', 400, 'This is not the address the link was sent to.', {
      reason: 'email-mismatch',
      fields: { email: 'This is not the address the link was sent to.' },
    });

  it.each([
    ['en', 'E-mail address', 'Confirm and sign in', 'This is not the address the sign-in link was sent to.'],
    ['ja', 'メールアドレス', '確認してログイン', 'ログイン用リンクの送信先と異なるメールアドレスです。'],
  ] as const)('says the address did not match (%s) and lets the person correct it', async (locale, label, button, message) => {
    let answers = 0;
    server.on('/auth/confirm', () => (answers++ === 0 ? mismatch() : signedIn('hanako@example.com')));
    view = renderApp(`/login-confirmation?token=${TOKEN}`, { locale });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(label), 'hanako@exmaple.com');
    await user.click(screen.getByRole('button', { name: button }));

    expect((await screen.findByText(message, { exact: false })).textContent).toContain(message);
    const field = screen.getByLabelText<HTMLInputElement>(label);
    expect(field.value).toBe('hanako@exmaple.com');
    expect(screen.queryByText(/no longer valid|無効/)).toBeNull();

    await user.clear(field);
    await user.type(field, 'hanako@example.com');
    await user.click(screen.getByRole('button', { name: button }));
    await waitFor(() => {
      expect(location()).toBe('/b/clinic');
    });
    expect(confirmations().map((request) => request.body)).toEqual([
      { email: 'hanako@exmaple.com', token: TOKEN },
      { email: 'hanako@example.com', token: TOKEN },
    ]);
  });
});

describe('a link that is no longer valid', () => {
  it('says so, clears the token from the address bar, and sends a new link to the same address', async () => {
    rememberEmailForSignIn('hanako@example.com', { clinicId: 'demo-clinic', serviceId: 'pgt' });
    server.on('/auth/confirm', linkInvalid);
    view = renderApp(`/login-confirmation?token=${TOKEN}&next=%2Fb%2Freview`, { locale: 'ja' });

    await screen.findByText('このログイン用リンクは使用できなくなりました。ログイン画面でもう一度メールアドレスを入力し、新しいリンクを受け取ってください。');
    // The address changes at once; the router's location follows in a transition.
    await waitFor(() => {
      expect(location()).toBe('/login-confirmation?next=%2Fb%2Freview');
    });
    const resend = screen.getByRole('button', { name: '新しいリンクを送信' });
    expect(screen.getAllByRole('button').filter((b) => b.closest('main'))).toEqual([resend]);

    await userEvent.setup().click(resend);
    await screen.findByRole('heading', { name: 'メールをご確認ください' });
    expect(server.calls('sendEmail-authLink')).toEqual([
      { email: 'hanako@example.com', locale: 'ja', clinicId: 'demo-clinic', serviceId: 'pgt' },
    ]);
    expect(screen.getByRole('status').textContent).toContain('hanako@example.com');
    expect(screen.queryByRole('heading', { level: 1, name: 'ログイン' })).toBeNull();
  });

  it('also for an address typed again on another device', async () => {
    server.on('/auth/confirm', linkInvalid);
    view = renderApp(`/login-confirmation?token=${TOKEN}`);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('E-mail address'), 'hanako@example.com');
    await user.click(screen.getByRole('button', { name: 'Confirm and sign in' }));
    await screen.findByText('This sign-in link can no longer be used. Please ask for a new link on the sign-in page.');
    await user.click(screen.getByRole('button', { name: 'Send a new link' }));
    await screen.findByRole('heading', { name: 'Check your inbox' });
    expect(server.calls('sendEmail-authLink')).toEqual([{ email: 'hanako@example.com', locale: 'en' }]);
  });

  it('offers the way back to login when the address is not known (no token at all)', async () => {
    view = renderApp('/login-confirmation');
    await screen.findByText('This sign-in link can no longer be used. Please ask for a new link on the sign-in page.');
    expect(screen.getByRole('link', { name: 'Back to sign-in' }).getAttribute('href')).toBe('/');
    expect(confirmations()).toEqual([]);
  });

  it('shows a rate limit on the new link in words', async () => {
    rememberEmailForSignIn('hanako@example.com', {});
    server.on('/auth/confirm', linkInvalid);
    server.on('/functions/sendEmail-authLink', () => refuse('RESOURCE_EXHAUSTED', 429, 'Too many requests.'));
    view = renderApp(`/login-confirmation?token=${TOKEN}`);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Send a new link' }));
    await screen.findByText('Too many sign-in links have been requested. Please wait a few minutes and try again.');
  });
});

describe('a confirmation that could not reach the server', () => {
  it('keeps the link and lets the person try again', async () => {
    rememberEmailForSignIn('hanako@example.com', {});
    server.on('/auth/confirm', () => json({ error: { status: 'UNAVAILABLE', message: 'down' } }, 503));
    view = renderApp(`/login-confirmation?token=${TOKEN}`);
    await screen.findByText('The service is temporarily unavailable. Please check your connection and try again.');
    expect(location()).toBe(`/login-confirmation?token=${TOKEN}`);
    server.on('/auth/confirm', () => signedIn('hanako@example.com'));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('heading', { level: 1, name: 'Health care provider code' });
  });
});
