import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auth } from '../auth/session';
import { confirmEmailLink } from '../auth/signIn';
import { useAppStore } from '../store';
import { bindAuthToStore, fakeServer, reply, type FakeServer } from '../test/fakeServer';
import { renderApp } from '../test/renderApp';

let view: ReturnType<typeof renderApp> | undefined;
let server: FakeServer;

beforeEach(async () => {
  server = fakeServer({ '/auth/confirm': () => reply({ uid: 'u1', email: 'hanako@example.com', token: 'bearer-1' }) });
  await bindAuthToStore();
});

afterEach(() => {
  view?.unmount();
  view = undefined;
});

describe('header sign-out', () => {
  it.each([
    ['en', 'Sign out'],
    ['ja', 'ログアウト'],
  ] as const)('revokes the session, resets the store and shows the login screen (%s)', async (locale, button) => {
    const user = await confirmEmailLink(auth, 'hanako@example.com', 'a-valid-link-token-of-some-length');
    view = renderApp('/b/clinic', { locale, user });
    await screen.findByRole('heading', { level: 1, name: locale === 'en' ? 'Health care provider code' : '医療機関コード' });
    useAppStore.getState().receiveSnapshot({ path: 'users/u1', exists: true, data: { appointmentId: 'a1' }, version: 2 });
    const header = within(screen.getByRole('banner'));
    await userEvent.setup().click(await header.findByRole('button', { name: button }));

    // The reset store is back in the start-up language (jsdom's browser language, English).
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(view.router.state.location.pathname).toBe('/');
    expect(view.router.state.location.search).toBe('');
    expect(server.requests.filter((r) => r.url === '/auth/sign-out').map((r) => r.method)).toEqual(['POST']);
    expect(useAppStore.getState().session.user).toBeNull();
    expect(useAppStore.getState().documents.user).toBeNull();
    expect(within(screen.getByRole('banner')).queryByRole('button', { name: /Sign out|ログアウト/ })).toBeNull();
  });

  it('asks first while a time is held: staying keeps the session, "Sign out" ends it', async () => {
    const user = await confirmEmailLink(auth, 'hanako@example.com', 'a-valid-link-token-of-some-length');
    view = renderApp('/b/clinic', { locale: 'en', user });
    await screen.findByRole('heading', { level: 1, name: 'Health care provider code' });
    useAppStore.getState().receiveSnapshot({ path: 'users/u1', exists: true, data: { appointmentId: 'a1' }, version: 2 });
    const holdExpiresAt = new Date(Date.now() + 8 * 60_000).toISOString();
    useAppStore.getState().receiveSnapshot({
      path: 'appointments/a1',
      exists: true,
      data: { status: 'draft', date: '2030-03-05', time: '11:00', timezone: 'Asia/Tokyo', counselorId: 'c-brown', holdExpiresAt },
      version: 3,
    });
    const clicks = userEvent.setup();
    const signOut = () => within(screen.getByRole('banner')).getByRole('button', { name: 'Sign out' });
    await clicks.click(signOut());
    const dialog = await screen.findByRole('alertdialog', { name: 'Sign out and give up this time?' });
    expect(dialog.textContent).toContain('someone else may book it');
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Stay signed in' }));
    await clicks.click(within(dialog).getByRole('button', { name: 'Stay signed in' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(server.requests.filter((r) => r.url === '/auth/sign-out')).toEqual([]);

    await clicks.click(signOut());
    const again = await screen.findByRole('alertdialog', { name: 'Sign out and give up this time?' });
    await clicks.click(within(again).getByRole('button', { name: 'Sign out' }));
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(server.requests.filter((r) => r.url === '/auth/sign-out').map((r) => r.method)).toEqual(['POST']);
  });
});
