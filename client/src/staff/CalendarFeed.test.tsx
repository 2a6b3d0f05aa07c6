import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bindLocale } from '../i18n';
import { createI18n } from '../i18n/bundled';
import type { Locale } from '../i18n/locale';
import { useAppStore } from '../store';
import type { AuthUser } from '../store/types';
import { fakeServer, refuse, reply, type FakeServer } from '../test/fakeServer';
import { admin, counselorSato } from '../test/staff';
import CalendarFeed, { FEED_READ, FEED_ROTATE } from './CalendarFeed';

const URL_1 = 'https://clinic.example/calendar/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics';
const URL_2 = 'https://clinic.example/calendar/BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB.ics';

let server: FakeServer;
let cleanup: (() => void) | undefined;

function show(user: AuthUser, locale: Locale = 'en') {
  useAppStore.getState().reset();
  useAppStore.getState().setAuthUser(user);
  useAppStore.getState().setLocale(locale);
  const i18n = createI18n(locale);
  const unbind = bindLocale(i18n, useAppStore);
  const view = render(
    <I18nextProvider i18n={i18n}>
      <CalendarFeed />
    </I18nextProvider>,
  );
  cleanup = () => {
    view.unmount();
    unbind();
  };
}

beforeEach(() => {
  server = fakeServer({
    [`/functions/${FEED_READ}`]: () => reply({ counselorId: 'c-sato', exists: false, created: null, url: null }),
    [`/functions/${FEED_ROTATE}`]: () => reply({ counselorId: 'c-sato', exists: true, created: '2026-11-26T10:00:00.000Z', url: URL_1 }),
    '/functions/clinic-read': () =>
      reply({
        id: 'demo-clinic',
        counselors: [
          { id: 'c-sato', name: { ja: '佐藤 花子', en: 'Hanako Sato' } },
          { id: 'c-tanaka', name: { ja: '田中 美咲', en: 'Misaki Tanaka' } },
        ],
      }),
  });
});

afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

describe('CalendarFeed', () => {
  it('lets a counselor make their address, shows it once and copies it', async () => {
    const user = userEvent.setup();
    show(counselorSato);
    await screen.findByText('There is no calendar address yet.');
    expect(server.calls(FEED_READ)).toEqual([{ counselorId: 'c-sato' }]);
    // No address in use: nothing to confirm.
    await user.click(screen.getByRole('button', { name: 'Make a calendar address' }));
    const address = await screen.findByLabelText('Your private calendar address');
    expect((address as HTMLInputElement).value).toBe(URL_1);
    expect(server.calls(FEED_ROTATE)).toEqual([{ counselorId: 'c-sato' }]);
    await user.click(screen.getByRole('button', { name: 'Copy the address' }));
    expect(await screen.findByText('The address is copied.')).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe(URL_1);
  });

  it('asks before replacing an address in use, and keeps it when told to', async () => {
    const user = userEvent.setup();
    server.on(`/functions/${FEED_READ}`, () => reply({ counselorId: 'c-sato', exists: true, created: '2026-11-20T01:00:00.000Z', url: null }));
    server.on(`/functions/${FEED_ROTATE}`, () => reply({ counselorId: 'c-sato', exists: true, created: '2026-11-26T10:00:00.000Z', url: URL_2 }));
    show(counselorSato, 'ja');
    await screen.findByText(/カレンダーのアドレスは .* に発行されています。/);
    await user.click(screen.getByRole('button', { name: '新しいアドレスを発行' }));
    const question = screen.getByRole('group');
    expect(within(question).getByText(/今のアドレスはすぐに使えなくなり/)).toBeTruthy();
    await user.click(within(question).getByRole('button', { name: '今のアドレスのままにする' }));
    expect(server.calls(FEED_ROTATE)).toEqual([]);
    expect(screen.queryByRole('group')).toBeNull();

    await user.click(screen.getByRole('button', { name: '新しいアドレスを発行' }));
    await user.click(screen.getByRole('button', { name: '新しいアドレスを発行する' }));
    const address = await screen.findByLabelText('あなた専用のカレンダーのアドレス');
    expect((address as HTMLInputElement).value).toBe(URL_2);
    expect(server.calls(FEED_ROTATE)).toEqual([{ counselorId: 'c-sato' }]);
  });

  it("lets a clinic_admin choose a counselor and says what the server refused", async () => {
    const user = userEvent.setup();
    server.on(`/functions/${FEED_ROTATE}`, () => refuse('PERMISSION_DENIED', 403, 'You do not have access to this document.'));
    show(admin);
    const choice = await screen.findByLabelText('Whose calendar');
    await screen.findByRole('option', { name: 'Misaki Tanaka' });
    expect(server.calls(FEED_READ)).toEqual([]);
    await user.selectOptions(choice, 'c-tanaka');
    await screen.findByText('There is no calendar address yet.');
    expect(server.calls(FEED_READ)).toEqual([{ counselorId: 'c-tanaka' }]);
    await user.click(screen.getByRole('button', { name: 'Make a calendar address' }));
    expect((await screen.findByRole('alert')).textContent).not.toBe('');
    expect(server.calls(FEED_ROTATE)).toEqual([{ counselorId: 'c-tanaka' }]);
    expect(screen.queryByLabelText('Your private calendar address')).toBeNull();
  });
});
