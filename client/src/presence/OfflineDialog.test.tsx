import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakePresence, hanako, layoutTests } from '../test/presence';

const { render, advance } = layoutTests();

describe('offline dialog', () => {
  it.each([
    ['en', 'No internet connection', 'Retry', 'Your answers will be sent when you are back online.'],
    ['ja', 'インターネットに接続されていません', '再試行', '入力した回答は、接続が回復したときに送信されます。'],
  ] as const)('appears 5 s after the browser goes offline, announced, focused on Retry (%s)', (locale, title, retry, queued) => {
    const presence = fakePresence();
    const view = render(presence, { locale, path: '/contact' });
    act(() => {
      presence.setOnline(false);
    });
    advance(4_999);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    advance(1);
    const dialog = screen.getByRole('alertdialog', { name: title });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    const description = document.getElementById(dialog.getAttribute('aria-describedby') ?? '');
    expect(description?.textContent).toContain(queued);
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: retry }));
    expect(view.container.hasAttribute('inert')).toBe(true);
  });

  it('cannot be dismissed: no close button, Escape does nothing, focus stays inside', () => {
    const presence = fakePresence();
    render(presence, { path: '/contact' });
    act(() => {
      presence.setOnline(false);
    });
    advance(5_000);
    const dialog = screen.getByRole('alertdialog');
    expect(within(dialog).getAllByRole('button').map((b) => b.textContent)).toEqual(['Retry']);
    const escape = fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(escape).toBe(false); // default prevented
    expect(screen.getByRole('alertdialog').isConnected).toBe(true);
    const retry = within(dialog).getByRole('button', { name: 'Retry' });
    fireEvent.keyDown(retry, { key: 'Tab' });
    fireEvent.keyDown(retry, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(retry);
    // Focus that escapes (a click on the page behind) is brought back.
    act(() => {
      screen.getByRole('textbox', { name: 'Answer' }).focus();
    });
    expect(document.activeElement).toBe(retry);
  });

  it('Retry reconnects with a spinner, and the dialog disappears when back online', () => {
    const presence = fakePresence();
    presence.world.open = true; // signed in: the socket should be up
    const view = render(presence, { user: hanako });
    act(() => {
      presence.setReady(false);
    });
    advance(5_000);
    const retry = screen.getByRole('button', { name: 'Retry' });
    fireEvent.click(retry);
    expect(presence.realtime.reconnect).toHaveBeenCalledTimes(1);
    expect(retry.getAttribute('aria-disabled')).toBe('true');
    expect(retry.querySelector('.spinner')).not.toBeNull();
    expect(screen.getByRole('status').textContent).toContain('Checking the connection…');
    expect(document.activeElement).toBe(retry);
    advance(4_000);
    expect(retry.getAttribute('aria-disabled')).toBe('false');
    expect(retry.querySelector('.spinner')).toBeNull();
    act(() => {
      presence.setReady(true);
    });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(view.container.hasAttribute('inert')).toBe(false);
  });

  it('back online: closes at once and asks the socket to reconnect', () => {
    const presence = fakePresence();
    render(presence, { path: '/contact' });
    act(() => {
      presence.setOnline(false);
    });
    advance(6_000);
    expect(screen.getByRole('alertdialog').isConnected).toBe(true);
    act(() => {
      presence.setOnline(true);
    });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(presence.realtime.reconnect).toHaveBeenCalled();
  });

  it('comes above another dialog already open (a portal in <body>): that one is inert meanwhile', () => {
    const other = document.createElement('div');
    other.setAttribute('role', 'dialog');
    document.body.append(other);
    const presence = fakePresence();
    render(presence, { path: '/contact' });
    act(() => {
      presence.setOnline(false);
    });
    advance(5_000);
    const dialog = screen.getByRole('alertdialog');
    expect(other.hasAttribute('inert')).toBe(true);
    expect(dialog.closest('[inert]')).toBeNull();
    act(() => {
      presence.setOnline(true);
    });
    expect(other.hasAttribute('inert')).toBe(false);
    other.remove();
  });

  it('a socket that is not wanted (signed out) never counts as down', () => {
    const presence = fakePresence();
    presence.world.ready = false;
    render(presence, { path: '/contact' });
    advance(10_000);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('takes precedence over the inactivity warning', () => {
    const presence = fakePresence();
    render(presence, { user: hanako });
    advance(550_000);
    expect(screen.getByRole('alertdialog', { name: 'Are you still there?' }).isConnected).toBe(true);
    act(() => {
      presence.setOnline(false);
    });
    advance(5_000);
    expect(screen.getAllByRole('alertdialog').map((d) => d.getAttribute('class'))).toEqual([
      'modal-dialog offline-dialog',
    ]);
  });
});
