import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auth } from '../auth/session';
import { setToken } from '../auth/token';
import { bindAuthToStore, fakeServer, refuse, reply, type FakeServer } from '../test/fakeServer';
import { renderApp } from '../test/renderApp';
import { admin } from '../test/staff';
import type { SecondFactorState } from '../store/types';

let view: ReturnType<typeof renderApp> | undefined;
let server: FakeServer;
let sessionState: SecondFactorState = 'required';

const URI = 'otpauth://totp/GeneCounsel:staff%40demo-clinic.example?secret=JBSWY3DPEHPK3PXP&issuer=GeneCounsel';
/** A small drawing shaped as the server's (realtime/qr_code.py): background path, module lines. */
const QR_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29"><path fill="#fff" d="M0 0h29v29h-29z"/><path stroke="#000" d="M4 4.5h7m2 0h1M4 5.5h1"/></svg>';
const RECOVERY = Array.from({ length: 10 }, (_, i) => `rc-${String(i).padStart(2, '0')}-abcd-efgh`);

beforeEach(async () => {
  sessionState = 'required';
  server = fakeServer({
    '/auth/session': () => reply({ ...admin, secondFactor: sessionState }),
    '/functions/auth-totpEnroll': () => reply({ otpauthUri: URI, recoveryCodes: RECOVERY, qrSvg: QR_SVG }),
  });
  await bindAuthToStore();
});

afterEach(async () => {
  view?.unmount();
  view = undefined;
  await auth.signOut();
});

const totpRequests = () => server.requests.filter((r) => r.url === '/auth/totp');
const location = () => view?.router.state.location.pathname;

async function openForm(state: SecondFactorState, locale: 'en' | 'ja' = 'en') {
  sessionState = state;
  view = renderApp('/staff', { user: { ...admin, secondFactor: state }, locale });
  await screen.findByRole('heading', { level: 1, name: locale === 'en' ? 'Second sign-in step' : '2段階目のログイン' });
}

describe('/staff/second-factor: code required', () => {
  it('checks the code before sending, then posts it and goes on to the board', async () => {
    const user = userEvent.setup();
    setToken('bearer-s');
    server.on('/auth/totp', () => reply({ uid: admin.uid, secondFactor: 'ok' }));
    await openForm('required');
    const code = screen.getByLabelText('Code');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');

    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Enter the code.');
    expect(code.getAttribute('aria-invalid')).toBe('true');
    await user.type(code, '12a');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Enter the 6 digits from the app, or a recovery code.');
    expect(totpRequests()).toEqual([]);

    await user.clear(code);
    await user.type(code, '123 456');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await screen.findByRole('heading', { level: 1, name: 'Bookings board' });
    expect(location()).toBe('/staff');
    expect(totpRequests()).toEqual([{ url: '/auth/totp', method: 'POST', body: { code: '123456' } }]);
    const [, init] = (globalThis.fetch as unknown as { mock: { calls: [string, RequestInit][] } }).mock.calls.find(
      ([url]) => url === '/auth/totp',
    ) ?? ['', {}];
    expect(init.credentials).toBe('include');
    expect(init.headers).toEqual({ 'Content-Type': 'application/json', Authorization: 'Bearer bearer-s' });
  });

  it("shows the server's message for a refused code (401) and stays", async () => {
    const user = userEvent.setup();
    server.on('/auth/totp', () => refuse('UNAUTHENTICATED', 401, 'The code is not valid.'));
    await openForm('required');
    await user.type(screen.getByLabelText('Code'), '654321');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The code is not valid.');
    expect(location()).toBe('/staff/second-factor');
  });

  it('says a refused code in the page language (ja), by the 401 details', async () => {
    const user = userEvent.setup();
    server.on('/auth/totp', () => refuse('UNAUTHENTICATED', 401, 'That code is not valid.', { secondFactor: 'required' }));
    await openForm('required', 'ja');
    await user.type(screen.getByLabelText('コード'), '654321');
    await user.click(screen.getByRole('button', { name: '確認' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'コードが正しくありません。認証アプリに表示されている現在のコードを入力してください。',
    );
    expect(location()).toBe('/staff/second-factor');
  });

  it('accepts a recovery code in place of a code', async () => {
    const user = userEvent.setup();
    server.on('/auth/totp', () => reply({ uid: admin.uid, secondFactor: 'ok' }));
    await openForm('required', 'ja');
    await user.type(screen.getByLabelText('コード'), ' rc-01-abcd-efgh ');
    await user.click(screen.getByRole('button', { name: '確認' }));
    await screen.findByRole('heading', { level: 1, name: '予約ボード' });
    expect(totpRequests().map((r) => r.body)).toEqual([{ code: 'rc-01-abcd-efgh' }]);
  });
});

describe('/staff/second-factor: enrolment', () => {
  it('asks auth-totpEnroll once, shows the QR code, the address, the key and the ten recovery codes, then the form', async () => {
    const user = userEvent.setup();
    server.on('/auth/totp', () => reply({ uid: admin.uid, secondFactor: 'ok' }));
    await openForm('enrol');
    expect(await screen.findByText(URI)).toBeTruthy();
    const qr = screen.getByRole('img', { name: 'QR code that sets up your authenticator app for this account' });
    expect(qr.getAttribute('viewBox')).toBe('0 0 29 29');
    expect(Array.from(qr.querySelectorAll('path')).map((p) => [p.getAttribute('d'), p.getAttribute('fill'), p.getAttribute('stroke')])).toEqual([
      ['M0 0h29v29h-29z', '#fff', null],
      ['M4 4.5h7m2 0h1M4 5.5h1', null, '#000'],
    ]);
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP')).toBeTruthy();
    const list = screen.getByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(RECOVERY);
    expect(server.calls('auth-totpEnroll')).toEqual([{}]);
    await user.type(screen.getByLabelText('Code'), '000111');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    // Not before the person says the recovery codes are saved.
    expect((await screen.findByRole('alert')).textContent).toBe('Save your recovery codes first, then check this box.');
    expect(totpRequests()).toEqual([]);
    await user.click(screen.getByLabelText('I have saved my recovery codes somewhere safe'));
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await screen.findByRole('heading', { level: 1, name: 'Bookings board' });
    expect(server.calls('auth-totpEnroll')).toHaveLength(1);
  });

  it('a failed enrolment says so and offers to try again', async () => {
    const user = userEvent.setup();
    let fail = true;
    server.on('/functions/auth-totpEnroll', () =>
      fail ? refuse('PERMISSION_DENIED', 403, 'No.') : reply({ otpauthUri: URI, recoveryCodes: RECOVERY }),
    );
    await openForm('enrol');
    await screen.findByRole('alert');
    expect(screen.queryByLabelText('Code')).toBeNull();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try the setup again' }));
    await waitFor(() => {
      expect(screen.getByText(URI)).toBeTruthy();
    });
    expect(screen.getByLabelText('Code')).toBeTruthy();
  });
});
