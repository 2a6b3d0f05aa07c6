import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../store';
import { fakePresence, hanako, layoutTests } from '../test/presence';

const { render, advance } = layoutTests();

describe('connection notice', () => {
  it.each([
    ['en', 'No internet connection', 'Please check your Wi-Fi or mobile data.'],
    ['ja', 'インターネットに接続されていません', 'Wi-Fiやモバイルデータ通信の設定をご確認ください。'],
  ] as const)('appears 5 s after the browser goes offline, announced, blocking nothing (%s)', (locale, title, body) => {
    const presence = fakePresence();
    const view = render(presence, { locale, path: '/contact' });
    const answer = screen.getByRole('textbox', { name: 'Answer' });
    act(() => {
      answer.focus();
      presence.setOnline(false);
    });
    advance(4_999);
    expect(screen.queryByRole('region', { name: title })).toBeNull();
    advance(1);
    const notice = screen.getByRole('region', { name: title });
    expect(within(notice).getByRole('alert').textContent).toContain(body);
    // Typing goes on: the focus stays in the field and the page is not inert.
    expect(document.activeElement).toBe(answer);
    expect(view.container.querySelector('[inert]')).toBeNull();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it.each([
    ['en', "Cannot reach the clinic's server", 'No internet connection'],
    ['ja', 'クリニックのサーバーに接続できません', 'インターネットに接続されていません'],
  ] as const)('online but the server does not answer: says so, not "no internet" (%s)', (locale, title, wrong) => {
    const presence = fakePresence();
    presence.world.open = true; // signed in: the socket should be up
    render(presence, { locale, user: hanako });
    act(() => {
      presence.setReady(false);
    });
    advance(5_000);
    expect(screen.getByRole('region', { name: title }).isConnected).toBe(true);
    expect(screen.queryByText(wrong)).toBeNull();
    act(() => {
      presence.setOnline(false); // and then the device goes offline too
    });
    expect(screen.getByRole('region', { name: wrong }).isConnected).toBe(true);
  });

  it('promises to send answers only while some are waiting to be sent', () => {
    const presence = fakePresence();
    presence.world.open = true;
    render(presence, { user: hanako });
    act(() => {
      presence.setReady(false);
    });
    advance(5_000);
    const notice = screen.getByRole('region', { name: "Cannot reach the clinic's server" });
    expect(notice.textContent).not.toContain('sent automatically');
    act(() => {
      useAppStore.getState().setSaveStatus('offline');
    });
    expect(notice.textContent).toContain(
      'your answers are kept on this page and sent automatically when the connection returns',
    );
  });

  it('cannot be dismissed: its one button is Retry, Escape does nothing', () => {
    const presence = fakePresence();
    render(presence, { path: '/contact' });
    act(() => {
      presence.setOnline(false);
    });
    advance(5_000);
    const notice = screen.getByRole('region', { name: 'No internet connection' });
    expect(within(notice).getAllByRole('button').map((b) => b.textContent)).toEqual(['Retry']);
    fireEvent.keyDown(notice, { key: 'Escape' });
    expect(screen.getByRole('region', { name: 'No internet connection' }).isConnected).toBe(true);
  });

  it('Retry reconnects with a spinner, and the notice disappears when back online', () => {
    const presence = fakePresence();
    presence.world.open = true;
    render(presence, { user: hanako });
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
    advance(4_000);
    expect(retry.getAttribute('aria-disabled')).toBe('false');
    expect(retry.querySelector('.spinner')).toBeNull();
    act(() => {
      presence.setReady(true);
    });
    expect(screen.queryByRole('region', { name: "Cannot reach the clinic's server" })).toBeNull();
  });

  it('back online: closes at once and asks the socket to reconnect', () => {
    const presence = fakePresence();
    render(presence, { path: '/contact' });
    act(() => {
      presence.setOnline(false);
    });
    advance(6_000);
    expect(screen.getByRole('region', { name: 'No internet connection' }).isConnected).toBe(true);
    act(() => {
      presence.setOnline(true);
    });
    expect(screen.queryByRole('region', { name: 'No internet connection' })).toBeNull();
    expect(presence.realtime.reconnect).toHaveBeenCalled();
  });

  it('a socket that is not wanted (signed out) never counts as down', () => {
    const presence = fakePresence();
    presence.world.ready = false;
    render(presence, { path: '/contact' });
    advance(10_000);
    expect(screen.queryByRole('region', { name: "Cannot reach the clinic's server" })).toBeNull();
    expect(screen.queryByRole('region', { name: 'No internet connection' })).toBeNull();
  });

  it('holds back the inactivity warning while the connection is lost', () => {
    const presence = fakePresence();
    render(presence, { user: hanako });
    advance(550_000);
    expect(screen.getByRole('alertdialog', { name: 'Are you still there?' }).isConnected).toBe(true);
    act(() => {
      presence.setOnline(false);
    });
    advance(5_000);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('region', { name: 'No internet connection' }).isConnected).toBe(true);
  });
});
