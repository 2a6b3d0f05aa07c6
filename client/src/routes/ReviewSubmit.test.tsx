import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { completeIntake, pushAppointment, readyBooking, seedBooking, summaryRows } from '../test/booking';
import { createI18n } from '../i18n/bundled';
import { useAppStore } from '../store';
import { fakeServer, refuse, reply, type FakeServer } from '../test/fakeServer';
import { inMemoryRouter } from '../test/memoryRouter';
import { alice, renderApp } from '../test/renderApp';
import HeldTimeBar from '../booking/HeldTimeBar';
import Review from './Review';

let view: { unmount: () => void } | undefined;
let server: FakeServer;

const T0 = Date.parse('2025-03-03T00:00:00Z');
const minutes = (n: number) => n * 60_000;

/** A draft that holds 5 March 11:00 (Tokyo) with c-brown, e-mails in Japanese, terms agreed. */
function held(expiresAt: number, extra: Record<string, unknown> = {}) {
  return {
    ...readyBooking,
    locale: 'ja',
    holdExpiresAt: new Date(expiresAt).toISOString(),
    ...extra,
  };
}

beforeEach(() => {
  // The person is in the clinic's zone unless a test says otherwise (one time shown).
  vi.stubEnv('TZ', 'Asia/Tokyo');
  server = fakeServer();
});

afterEach(() => {
  vi.unstubAllEnvs();
  view?.unmount();
  view = undefined;
  vi.useRealTimers();
});

/** The server's answer to a hold placed or renewed at `now`: 10 minutes, cut at the attempt's cap. */
function holdReply(cap: number) {
  const now = Date.now();
  const next = new Date(Math.min(now + minutes(10), cap)).toISOString();
  return { holdExpiresAt: next, holdEndsBy: new Date(cap).toISOString(), serverTime: new Date(now).toISOString() };
}

describe('/b/review: submitting with a held time', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
    // The countdown renews at once a hold whose cap this tab does not know yet.
    server.on('/functions/appointment-hold', () => reply(holdReply(T0 + minutes(25))));
  });

  it('shows the held date, time, counselor, e-mail language and the countdown, then confirms the booking', async () => {
    server.on('/functions/appointment-updateStatus', () => {
      pushAppointment({ status: 'confirmed', joinUrl: 'https://meet.example/gc-abc', holdExpiresAt: null });
      return reply({ status: 'confirmed' });
    });
    const user = userEvent.setup();
    const app = renderApp('/b/review', { user: alice });
    view = app;
    seedBooking({ intake: completeIntake, fields: held(T0 + minutes(9) + 41_000) });
    const card = await screen.findByRole('region', { name: 'Your appointment' });
    expect(summaryRows(card)).toEqual([
      ['Date and time', 'Wed, Mar 5, 11:00 Japan Standard Time'],
      ['Counselor', 'Counselor c-brown'],
      ['Language of your e-mails', '日本語'],
    ]);
    // At the top of the page: the time left until the renewals' cap, not the hold's own 09:41.
    await vi.waitFor(() => {
      expect(screen.getByRole('timer', { name: 'Your time is held for' }).textContent).toBe('25:00');
    }, { timeout: 5000 });
    expect(within(card).queryByRole('timer')).toBeNull();
    expect(within(card).getByRole('link', { name: 'Change the time' }).getAttribute('href')).toBe('/b/appointment');

    const submit = screen.getByRole('button', { name: 'Confirm booking' });
    expect(submit.getAttribute('aria-disabled')).toBe('false');
    await user.click(submit);
    await screen.findByRole('heading', { level: 1, name: 'Appointment confirmed' }, { timeout: 5000 });
    expect(server.calls('appointment-updateStatus')).toEqual([{ appointmentId: 'a1', status: 'submitted' }]);
    expect(app.router.state.location.pathname).toBe('/b/confirmed');
  });

  it('goes on to the checkout for a service with a price ("Continue to payment")', async () => {
    server.on('/functions/appointment-updateStatus', () => {
      pushAppointment({ status: 'pending_payment' });
      return reply({ status: 'pending_payment' });
    });
    const user = userEvent.setup();
    const app = renderApp('/b/review', { user: alice });
    view = app;
    seedBooking({ intake: completeIntake, fields: held(T0 + minutes(10)), service: { price: { amount: 16500, currency: 'JPY' } } });
    await user.click(await screen.findByRole('button', { name: 'Continue to payment' }));
    await screen.findByRole('heading', { level: 1, name: 'Checkout' }, { timeout: 5000 });
    expect(app.router.state.location.pathname).toBe('/b/checkout');
  });

  it('says why it cannot submit yet, without calling the server', async () => {
    const user = userEvent.setup();
    view = renderApp('/b/review', { user: alice });
    seedBooking({ intake: completeIntake, fields: held(T0 + minutes(10), { agreedToTerms: false }) });
    const submit = await screen.findByRole('button', { name: 'Confirm booking' });
    expect(submit.getAttribute('aria-disabled')).toBe('true');
    await user.click(submit);
    expect(
      await screen.findByText('To continue with your booking, please read and agree to the terms of service.'),
    ).toBeTruthy();
    expect(server.calls('appointment-updateStatus')).toEqual([]);
  });

  it('shows what the server found missing, as links', async () => {
    server.on('/functions/appointment-updateStatus', () =>
      refuse('INVALID_ARGUMENT', 400, 'Some information is missing.', { missing: { profile: ['intake.profile.femaleDob'] } }),
    );
    const user = userEvent.setup();
    view = renderApp('/b/review', { user: alice });
    seedBooking({ intake: completeIntake, fields: held(T0 + minutes(10)) });
    await user.click(await screen.findByRole('button', { name: 'Confirm booking' }));
    const box = await screen.findByRole('alert');
    expect(within(box).getByText('Some information is missing.')).toBeTruthy();
    expect(within(box).getByRole('link', { name: 'Profile' }).getAttribute('href')).toBe('/b/profile');
  });

  it('shows the terms message when the server finds the terms not agreed', async () => {
    server.on('/functions/appointment-updateStatus', () =>
      refuse('INVALID_ARGUMENT', 400, 'Please agree.', { codes: { agreedToTerms: 'terms' } }),
    );
    const user = userEvent.setup();
    view = renderApp('/b/review', { user: alice });
    seedBooking({ intake: completeIntake, fields: held(T0 + minutes(10)) });
    await user.click(await screen.findByRole('button', { name: 'Confirm booking' }));
    const message = await screen.findByText(
      'To continue with your booking, please read and agree to the terms of service.',
    );
    expect(message.getAttribute('role')).toBe('alert');
    expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: 'I agree to the terms of service' }));
  });

  it('sends the person back to the calendar when the hold expired on the server (ABORTED)', async () => {
    server.on('/functions/appointment-updateStatus', () => refuse('ABORTED', 409, 'Your hold has expired. Please choose a time again.'));
    const user = userEvent.setup();
    view = renderApp('/b/review', { user: alice });
    seedBooking({ intake: completeIntake, fields: held(T0 + minutes(10)) });
    await user.click(await screen.findByRole('button', { name: 'Confirm booking' }));
    const message = await screen.findByText(/Your hold has expired\. Please choose a time again\./);
    expect(message.closest('[role="alert"]')).not.toBeNull();
    await user.click(within(message).getByRole('link', { name: 'Choose a time again' }));
    await screen.findByRole('heading', { level: 1, name: 'Choose a date and time' }, { timeout: 5000 });
  });

  it('speaks Japanese', async () => {
    view = renderApp('/b/review', { user: alice, locale: 'ja' });
    seedBooking({ intake: completeIntake, fields: held(T0 + minutes(10)), locale: 'ja' });
    expect(await screen.findByRole('button', { name: '予約を確定する' })).toBeTruthy();
    await vi.waitFor(() => {
      expect(screen.getByRole('timer', { name: 'この時間枠の確保: 残り' }).textContent).toBe('25分0秒');
    }, { timeout: 5000 });
    expect(screen.getByText('3月5日(水) 11:00 日本標準時')).toBeTruthy();
  });

  it('says "お支払いへ進む" for a priced service', async () => {
    view = renderApp('/b/review', { user: alice, locale: 'ja' });
    seedBooking({
      intake: completeIntake,
      fields: held(T0 + minutes(10)),
      locale: 'ja',
      service: { price: { amount: 16500, currency: 'JPY' } },
    });
    expect(await screen.findByRole('button', { name: 'お支払いへ進む' })).toBeTruthy();
  });
});

/** The review alone (no lazy routes), so that every timer can be fake. */
function renderReview() {
  useAppStore.getState().reset();
  useAppStore.getState().setAuthUser(alice);
  useAppStore.getState().setLocale('en');
  const { element, router } = inMemoryRouter(
    <Routes>
      <Route
        path="/b/review"
        element={
          <>
            <HeldTimeBar />
            <Review />
          </>
        }
      />
      <Route path="*" element={<p>Elsewhere</p>} />
    </Routes>,
    ['/b/review'],
  );
  const rendered = render(<I18nextProvider i18n={createI18n('en')}>{element}</I18nextProvider>);
  return { ...rendered, router };
}

describe('/b/review: the hold countdown and its renewal (fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });

  const advance = async (ms: number) => {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ms);
    });
  };

  const timer = () => screen.getByRole('timer', { name: 'Your time is held for' }).textContent;

  it('counts down steadily to the end the renewals may reach, renewing every 4 minutes without a jump', async () => {
    server.on('/functions/appointment-hold', () => {
      const answer = holdReply(T0 + minutes(30));
      pushAppointment({ holdExpiresAt: answer.holdExpiresAt });
      return reply(answer);
    });
    view = renderReview();
    seedBooking({ intake: completeIntake, fields: held(T0 + minutes(10)) });
    // Arriving, the tab learns the attempt's cap with a renewal at once.
    await advance(0);
    const slot = { appointmentId: 'a1', start: '2025-03-05T11:00:00+09:00', counselorId: 'c-brown' };
    expect(server.calls('appointment-hold')).toEqual([slot]);
    expect(timer()).toBe('30:00');
    await advance(1000);
    expect(timer()).toBe('29:59');

    await advance(minutes(4) - 2000); // 3:59 after arrival
    expect(server.calls('appointment-hold')).toHaveLength(1);
    expect(timer()).toBe('26:01');
    await advance(1000); // 4:00: renewed, the hold now ends at 14:00
    expect(server.calls('appointment-hold')).toEqual([slot, slot]);
    expect(timer()).toBe('26:00');
    await advance(1000);
    expect(timer()).toBe('25:59'); // no jump back to 10:00

    await advance(minutes(4) - 2000); // 7:59
    expect(server.calls('appointment-hold')).toHaveLength(2);
    await advance(1000); // 8:00
    expect(server.calls('appointment-hold')).toHaveLength(3);
    expect(timer()).toBe('22:00');
  });

  it("counts on the server's clock, whatever the device's clock says", async () => {
    // The device is 3 minutes behind the server: the hold ends 10 minutes after the server's now.
    server.on('/functions/appointment-hold', () => {
      const serverNow = Date.now() + minutes(3);
      return reply({
        holdExpiresAt: new Date(serverNow + minutes(10)).toISOString(),
        holdEndsBy: new Date(serverNow + minutes(10)).toISOString(),
        serverTime: new Date(serverNow).toISOString(),
      });
    });
    view = renderReview();
    seedBooking({ intake: completeIntake, fields: held(T0 + minutes(13)) });
    await advance(0);
    expect(timer()).toBe('10:00');
  });

  it('says five minutes and one minute once each, and the end; a renewal refused at the limit changes nothing', async () => {
    let calls = 0;
    server.on('/functions/appointment-hold', () => {
      calls += 1;
      if (calls === 1) return reply(holdReply(T0 + minutes(6)));
      return refuse('ABORTED', 409, 'This booking has kept a time on hold for as long as allowed.', {
        reason: 'holdLimit',
        retryAfter: new Date(T0 + minutes(36)).toISOString(),
      });
    });
    view = renderReview();
    seedBooking({ intake: completeIntake, fields: held(T0 + minutes(6)) });
    await advance(0);
    expect(timer()).toBe('06:00');
    const status = () => screen.getByText((_, element) => element?.getAttribute('role') === 'status' && element.closest('.hold-countdown') !== null);
    expect(status().textContent).toBe('');
    await advance(minutes(1));
    expect(status().textContent).toBe('Five minutes left on your held time.');
    await advance(minutes(3)); // 4:00: the renewal is refused at the limit
    expect(calls).toBe(2);
    expect(timer()).toBe('02:00');
    expect(screen.queryByRole('alert')).toBeNull();
    await advance(minutes(1));
    expect(timer()).toBe('01:00');
    expect(status().textContent).toBe('One minute left on your held time.');
    await advance(minutes(1));
    expect(status().textContent).toBe('Your hold has expired. Please choose a time again.');
    expect(screen.queryByRole('timer')).toBeNull();
    expect(calls).toBe(2); // not tried again
    expect(screen.getByRole('button', { name: 'Continue to choose a date and time' })).toBeTruthy();
  });

  it('says the hold is gone when its renewal is refused', async () => {
    server.on('/functions/appointment-hold', () => refuse('ABORTED', 409, 'This time has just been taken. Please choose another.', { alternatives: [] }));
    view = renderReview();
    seedBooking({ intake: completeIntake, fields: held(T0 + minutes(2)) });
    await advance(0);
    expect(server.calls('appointment-hold')).toHaveLength(1);
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.getAllByText(/Your hold has expired\. Please choose a time again\./).length).toBeGreaterThan(0);
  });
});
