import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { auth } from '../auth/session';
import { confirmEmailLink } from '../auth/signIn';
import { useAppStore } from '../store';
import { bindAuthToStore, fakeServer, refuse, reply } from '../test/fakeServer';
import { alice, renderApp } from '../test/renderApp';

let view: ReturnType<typeof renderApp> | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
});

async function openTerms(options: Parameters<typeof renderApp>[1]) {
  view = renderApp('/terms', options);
  await screen.findByRole('heading', { level: 1 });
  return userEvent.setup();
}

describe('erase my data on the terms page', () => {
  it('is offered to a signed-in person only, never to staff or to nobody', async () => {
    fakeServer();
    await openTerms({ user: null });
    expect(screen.queryByRole('button', { name: 'Withdraw consent and delete my data…' })).toBeNull();
    view?.unmount();
    await openTerms({ user: { ...alice, role: 'clinic_admin', clinicId: 'demo-clinic' } });
    expect(screen.queryByRole('button', { name: 'Withdraw consent and delete my data…' })).toBeNull();
    view?.unmount();
    await openTerms({ user: alice, locale: 'ja' });
    expect(screen.getByRole('heading', { level: 3, name: '同意の撤回とデータの削除' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '同意を撤回してデータを削除する…' })).toBeTruthy();
  });

  it('asks first, with the safe answer focused, and keeping the data calls nothing', async () => {
    const server = fakeServer();
    const user = await openTerms({ user: alice });
    await user.click(screen.getByRole('button', { name: 'Withdraw consent and delete my data…' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete your data?' });
    expect(within(dialog).getByText('This cannot be undone. If you sign in again with the same address, you start as a new account.')).toBeTruthy();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'No, keep my data' }));
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(server.calls('account-erase')).toEqual([]);
  });

  it('erases, signs out and says so on the login screen; a failure offers to try again', async () => {
    let fail = true;
    const server = fakeServer({
      '/auth/confirm': () => reply({ uid: alice.uid, email: alice.email, token: 't' }),
      '/functions/account-erase': () => (fail ? refuse('INTERNAL', 500, 'Internal error.') : reply({ erased: true })),
    });
    await bindAuthToStore();
    const signedIn = await confirmEmailLink(auth, alice.email, 'a-valid-link-token-of-some-length');
    const user = await openTerms({ user: signedIn });
    await user.click(screen.getByRole('button', { name: 'Withdraw consent and delete my data…' }));
    await user.click(screen.getByRole('button', { name: 'Yes, delete my data' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Your data could not be deleted.');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));

    await screen.findByRole('heading', { level: 1, name: 'Sign in' }, { timeout: 5000 });
    screen.getByText(
      'Your consent has been withdrawn and your data deleted. You have been signed out, and a confirmation e-mail is on its way.',
    );
    expect(view?.router.state.location.pathname).toBe('/');
    expect(useAppStore.getState().session.user).toBeNull();
    expect(server.calls('account-erase')).toEqual([{}, {}]);
    expect(server.requests.some((r) => r.url === '/auth/sign-out')).toBe(true);
  });
});
