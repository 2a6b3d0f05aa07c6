import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auth } from '../auth/session';
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
    const user = await auth.confirmEmailLink('hanako@example.com', 'a-valid-link-token-of-some-length');
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
});
