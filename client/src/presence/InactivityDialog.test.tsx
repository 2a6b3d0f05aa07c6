import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakePresence, hanako, layoutTests } from '../test/presence';
import { useAppStore } from '../store';

const { render, advance } = layoutTests();

describe('inactivity dialog', () => {
  it.each([
    ['en', 'Are you still there?', 'Continue', 'Signing out in 60 seconds.', 'Signing out in 59 seconds.'],
    ['ja', '操作を続けますか？', '続ける', 'あと60秒でログアウトします。', 'あと59秒でログアウトします。'],
  ] as const)('warns under 60 s with the seconds left, focused on Continue (%s)', (locale, title, button, at60, at59) => {
    const presence = fakePresence();
    const view = render(presence, { user: hanako, locale });
    advance(539_000);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    advance(1_000);
    const dialog = screen.getByRole('alertdialog', { name: title });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    expect(within(dialog).getByRole('timer').textContent).toContain(at60);
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: button }));
    advance(1_000);
    expect(within(dialog).getByRole('timer').textContent).toContain(at59);
    // The page behind is inert while the dialog shows.
    expect(view.container.hasAttribute('inert')).toBe(true);
  });

  it('is reset by keyboard, click and mouse activity, and tells the server with the step', () => {
    const presence = fakePresence();
    render(presence, { user: hanako, path: '/b/fertility-treatment' });
    advance(500_000);
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Answer' }), { key: 'a' });
    expect(presence.realtime.activity).toHaveBeenCalledExactlyOnceWith('fertility-treatment');
    advance(500_000);
    fireEvent.mouseMove(document.body);
    advance(500_000);
    fireEvent.click(screen.getByRole('heading', { name: 'Some page' }));
    advance(539_000);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    advance(1_000);
    expect(screen.getByRole('alertdialog').isConnected).toBe(true);
  });

  it('Continue closes the warning and restarts the countdown; Escape does not close it', () => {
    const presence = fakePresence();
    render(presence, { user: hanako });
    advance(550_000);
    const dialog = screen.getByRole('alertdialog');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.getByRole('alertdialog').isConnected).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(presence.realtime.activity).toHaveBeenCalledWith('family');
    advance(539_000);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('signs out at zero and shows the login screen with a notice', async () => {
    const presence = fakePresence();
    const view = render(presence, { user: hanako });
    advance(599_000);
    expect(presence.signOut).not.toHaveBeenCalled();
    advance(1_000);
    expect(presence.signOut).toHaveBeenCalledTimes(1);
    await act(async () => {
      await Promise.resolve();
    });
    expect(useAppStore.getState().session.user).toBeNull();
    expect(useAppStore.getState().loginNotice).toBe('sessionEnded');
    expect(view.router.state.location.pathname).toBe('/');
    expect(screen.getByRole('heading', { name: 'Login page' }).isConnected).toBe(true);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it("follows the server's session events: active from another tab, warning, expired", async () => {
    const presence = fakePresence();
    const view = render(presence, { user: hanako });
    advance(545_000);
    expect(screen.getByRole('alertdialog').isConnected).toBe(true);
    act(() => {
      presence.session({ state: 'active', secondsLeft: 600 });
    });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    act(() => {
      presence.session({ state: 'warning', secondsLeft: 25 });
    });
    expect(screen.getByRole('timer').textContent).toContain('Signing out in 25 seconds.');
    act(() => {
      presence.session({ state: 'expired', secondsLeft: 0 });
    });
    expect(presence.signOut).toHaveBeenCalledTimes(1);
    await act(async () => {
      await Promise.resolve();
    });
    expect(view.router.state.location.pathname).toBe('/');
    expect(useAppStore.getState().loginNotice).toBe('sessionEnded');
  });

  it('does not count while signed out', () => {
    const presence = fakePresence();
    render(presence, { user: null, path: '/contact' });
    advance(700_000);
    fireEvent.keyDown(document.body, { key: 'a' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(presence.realtime.activity).not.toHaveBeenCalled();
    expect(presence.signOut).not.toHaveBeenCalled();
  });
});
