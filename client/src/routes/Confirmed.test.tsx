import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { auth } from '../auth/session';
import { confirmEmailLink } from '../auth/signIn';
import { completeIntake, readyBooking, seedBooking, summaryRows } from '../test/booking';
import { bindAuthToStore, fakeServer, refuse, reply, type FakeServer } from '../test/fakeServer';
import { renderApp } from '../test/renderApp';

let view: ReturnType<typeof renderApp> | undefined;
let server: FakeServer;

const confirmed = {
  ...readyBooking,
  status: 'confirmed',
  locale: 'en',
  holdExpiresAt: null,
  joinUrl: 'https://meet.example.org/gc-abcdefghijklmnopqrstuvwx',
};

beforeEach(async () => {
  // The person is in the clinic's zone unless a test says otherwise (one time shown).
  vi.stubEnv('TZ', 'Asia/Tokyo');
  server = fakeServer({ '/auth/confirm': () => reply({ uid: 'u1', email: 'alice@example.com', token: 'bearer-1' }) });
  await bindAuthToStore();
});

afterEach(() => {
  vi.unstubAllEnvs();
  view?.unmount();
  view = undefined;
});

async function openConfirmed(locale: 'en' | 'ja' = 'en') {
  const user = await confirmEmailLink(auth, 'alice@example.com', 'a-valid-link-token-of-some-length');
  view = renderApp('/b/confirmed', { user, locale });
  seedBooking({ intake: completeIntake, fields: confirmed, locale });
  await screen.findByRole('heading', { level: 1, name: locale === 'en' ? 'Appointment confirmed' : '予約確定' });
}

describe('/b/confirmed', () => {
  it('shows the booking in the clinic zone, the join link and the return-home countdown', async () => {
    await openConfirmed();
    const card = screen.getByRole('region', { name: 'Your appointment' });
    expect(summaryRows(card)).toEqual([
      ['Date and time', 'Wed, Mar 5, 11:00 Japan Standard Time'],
      ['Counselor', 'Counselor c-brown'],
      ['Language of your e-mails', 'English'],
    ]);
    expect(within(card).getByRole('link', { name: 'Join the video session' }).getAttribute('href')).toBe(confirmed.joinUrl);
    expect(screen.getByRole('timer').textContent).toMatch(/180/);
  });

  it("shows the person's own time beside the clinic's when they are abroad, in the summary and the cancel dialog", async () => {
    vi.stubEnv('TZ', 'America/Los_Angeles');
    const user = userEvent.setup();
    await openConfirmed();
    const card = screen.getByRole('region', { name: 'Your appointment' });
    expect(summaryRows(card).slice(0, 2)).toEqual([
      ['Date and time', 'Wed, Mar 5, 11:00 Japan Standard Time'],
      ['Your local time', 'Tue, Mar 4, 6:00 PM Pacific Time'],
    ]);
    await user.click(screen.getByRole('button', { name: 'Cancel appointment' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel your appointment' });
    expect(
      within(dialog).getByText('Appointment: Wed, Mar 5, 11:00 Japan Standard Time (your time: Tue, Mar 4, 6:00 PM Pacific Time)'),
    ).toBeTruthy();
  });

  it('says so when the appointment is not confirmed', async () => {
    const user = await confirmEmailLink(auth, 'alice@example.com', 'a-valid-link-token-of-some-length');
    view = renderApp('/b/confirmed', { user });
    seedBooking({ intake: completeIntake, fields: { ...confirmed, status: 'draft', joinUrl: null } });
    await screen.findByRole('heading', { level: 1, name: 'Appointment not confirmed' });
    expect(screen.getByRole('link', { name: 'Go to the review' }).getAttribute('href')).toBe('/b/review');
  });
});

describe('/b/confirmed: cancelling', () => {
  it('opens a modal dialog that keeps focus inside and closes with Escape', async () => {
    const user = userEvent.setup();
    await openConfirmed();
    const open = screen.getByRole('button', { name: 'Cancel appointment' });
    await user.click(open);
    const dialog = screen.getByRole('dialog', { name: 'Cancel your appointment' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.getAttribute('aria-describedby')).not.toBeNull();
    const reason = within(dialog).getByRole('textbox', { name: 'Reason for canceling' });
    expect(document.activeElement).toBe(reason);
    // The page behind is out of reach (hidden from assistive technology too).
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
    expect(screen.queryByRole('timer')).toBeNull();
    await user.tab();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel the appointment' }));
    await user.tab();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Keep my appointment' }));
    await user.tab();
    expect(document.activeElement).toBe(reason);
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Keep my appointment' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel appointment' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Appointment confirmed' })).toBeTruthy();
  });

  it('needs a reason, shows the failure state with "Try again", then signs out to login with a notice', async () => {
    let attempts = 0;
    server.on('/functions/appointment-cancel', () => {
      attempts += 1;
      return attempts === 1 ? refuse('INTERNAL', 500, 'An internal error occurred.') : reply({ status: 'cancelled' });
    });
    const user = userEvent.setup();
    await openConfirmed();
    await user.click(screen.getByRole('button', { name: 'Cancel appointment' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel your appointment' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the appointment' }));
    const required = await within(dialog).findByText('Please tell us why you are canceling.');
    expect(required.getAttribute('role')).toBe('alert');
    expect(server.calls('appointment-cancel')).toEqual([]);

    await user.type(within(dialog).getByRole('textbox', { name: 'Reason for canceling' }), 'My schedule changed');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the appointment' }));
    const failure = await within(dialog).findByText(
      'An error occurred while canceling your appointment. Please try again or contact us.',
    );
    expect(failure.closest('[role="alert"]')).not.toBeNull();
    expect(within(dialog).getByRole('link', { name: 'Contact us' }).getAttribute('href')).toBe('/contact?id=a1');
    expect(server.calls('appointment-cancel')).toHaveLength(1); // a failure is not repeated on its own

    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('heading', { level: 1, name: 'Sign in' }, { timeout: 5000 });
    expect(
      screen.getByText(
        'Your appointment has been canceled and you have been signed out. A confirmation e-mail is on its way.',
      ).getAttribute('role'),
    ).toBe('alert');
    expect(server.calls('appointment-cancel')).toEqual([
      { appointmentId: 'a1', reason: 'My schedule changed' },
      { appointmentId: 'a1', reason: 'My schedule changed' },
    ]);
    await waitFor(() => {
      expect(server.requests.filter((r) => r.url === '/auth/sign-out')).toHaveLength(1);
    });
    expect(auth.currentUser).toBeNull();
    expect(view?.router.state.location.pathname).toBe('/');
  });

  it('speaks Japanese', async () => {
    server.on('/functions/appointment-cancel', () => refuse('UNAVAILABLE', 503, 'Unavailable.'));
    server.on('/functions/appointment-cancelQuote', () =>
      reply({ refund: { amount: 8250, currency: 'JPY' }, freeUntil: '2026-12-08T01:00:00.000Z', share: 50 }),
    );
    const user = userEvent.setup();
    await openConfirmed('ja');
    expect(screen.getByRole('link', { name: 'ビデオ相談に参加する' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '予約をキャンセルする' }));
    const dialog = screen.getByRole('dialog', { name: '予約のキャンセル' });
    // Before confirming, what the cancel gives back by the policy.
    expect(await within(dialog).findByText('お支払い額の50%（8,250円）が返金されます。')).toBeTruthy();
    expect(server.calls('appointment-cancelQuote')).toEqual([{ appointmentId: 'a1' }]);
    await user.type(within(dialog).getByRole('textbox', { name: 'キャンセルの理由' }), '都合が悪くなったため');
    await user.click(within(dialog).getByRole('button', { name: 'キャンセルを確定する' }));
    expect(
      await within(dialog).findByText('予約のキャンセル中にエラーが発生しました。もう一度お試しいただくか、お問い合わせください。'),
    ).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'もう一度試す' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: '予約をキャンセルしない' })).toBeTruthy();
  });
});
