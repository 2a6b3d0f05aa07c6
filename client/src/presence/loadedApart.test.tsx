/**
 * The connection notice and the inactivity countdown are not part of the first load
 * (presence/dialogs.ts): here nothing loads them first, as in the app before the browser is
 * idle or before anyone has signed in.
 */
import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakePresence, hanako, renderLayout } from '../test/presence';

let view: ReturnType<typeof renderLayout> | undefined;
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  view?.unmount();
  view = undefined;
  vi.useRealTimers();
});

const advance = (ms: number) => {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
};

describe('the frame before its notice and countdown are loaded', () => {
  it('loads the connection notice when the connection is lost, and shows it', async () => {
    const presence = fakePresence();
    view = renderLayout(presence, { path: '/contact' });
    await act(() => vi.dynamicImportSettled());
    expect(screen.queryByRole('region')).toBeNull();
    act(() => {
      presence.setOnline(false);
    });
    advance(5_000);
    await act(() => vi.dynamicImportSettled()); // the frame asked for it when the connection was lost
    expect(screen.getByRole('region', { name: 'No internet connection' }).isConnected).toBe(true);
  });

  it('loads the countdown at sign-in, which then warns before signing out', async () => {
    const presence = fakePresence();
    view = renderLayout(presence, { user: hanako });
    await act(() => vi.dynamicImportSettled()); // the frame asked for it at sign-in
    advance(540_000);
    expect(screen.getByRole('alertdialog', { name: 'Are you still there?' }).isConnected).toBe(true);
  });
});
