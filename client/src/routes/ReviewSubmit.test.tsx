import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { completeIntake, pushAppointment, readyBooking, seedBooking, summaryRows } from '../test/booking';
import { createI18n } from '../i18n';
import { useAppStore } from '../store';
import { fakeServer, refuse, reply, type FakeServer } from '../test/fakeServer';
import { alice, renderApp } from '../test/renderApp';
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

describe('/b/review: submitting with a held time', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
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
    expect(within(card).getByRole('timer', { name: 'Time left on your hold' }).textContent).toBe('09:41');
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
    expect(screen.getByRole('timer', { name: '仮押さえの残り時間' }).textContent).toBe('10:00');
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
  const router = createMemoryRouter(
    [
      { path: '/b/review', element: <Review /> },
      { path: '*', element: <p>Elsewhere</p> },
    ],
    { initialEntries: ['/b/review'] },
  );
  const rendered = render(
    <I18nextProvider i18n={createI18n('en')}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
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

  it('counts down each second and renews the hold every 4 minutes with the same slot', async () => {
    server.on('/functions/appointment-hold', () => {
      const next = new Date(Date.now() + minutes(10)).toISOString();
      pushAppointment({ holdExpiresAt: next });
      return reply({ holdExpiresAt: next });
    });
    view = renderReview();
    seedBooking({ intake: completeIntake, fields: held(T0 + minutes(10)) });
    const timer = () => screen.getByRole('timer', { name: 'Time left on your hold' }).textContent;
    expect(timer()).toBe('10:00');
    await advance(1000);
    expect(timer()).toBe('09:59');

    await advance(minutes(4) - 2000); // 3:59 after arrival
    expect(server.calls('appointment-hold')).toEqual([]);
    expect(timer()).toBe('06:01');
    await advance(1000); // 4:00
    expect(server.calls('appointment-hold')).toEqual([
      { appointmentId: 'a1', start: '2025-03-05T11:00:00+09:00', counselorId: 'c-brown' },
    ]);
    await advance(1000);
    expect(timer()).toBe('09:59'); // renewed: 10 minutes from 4:00

    await advance(minutes(4) - 2000); // 7:59
    expect(server.calls('appointment-hold')).toHaveLength(1);
    await advance(1000); // 8:00
    expect(server.calls('appointment-hold')).toHaveLength(2);
  });

  it('renews at once a hold that is about to lapse, and warns in the last minute', async () => {
    server.on('/functions/appointment-hold', () => reply({ holdExpiresAt: new Date(Date.now() + minutes(10)).toISOString() }));
    view = renderReview();
    seedBooking({ intake: completeIntake, fields: held(T0 + 90_000) });
    await advance(29_000);
    expect(server.calls('appointment-hold')).toEqual([]);
    expect(screen.queryByText('One minute left on your hold.')).toBeNull();
    await advance(1000); // a minute before the end
    expect(server.calls('appointment-hold')).toHaveLength(1);
    expect(screen.getByText('One minute left on your hold.').getAttribute('role')).toBe('status');
  });

  it('keeps the hold to its end, not renewed again, when its renewal is refused at the hold limit', async () => {
    server.on('/functions/appointment-hold', () =>
      refuse('ABORTED', 409, 'This booking has kept a time on hold for as long as allowed.', {
        reason: 'holdLimit',
        retryAfter: new Date(T0 + minutes(32)).toISOString(),
      }),
    );
    view = renderReview();
    seedBooking({ intake: completeIntake, fields: held(T0 + minutes(2)) });
    await advance(minutes(1)); // the renewal (a minute before the end) is refused
    expect(server.calls('appointment-hold')).toHaveLength(1);
    expect(screen.getByRole('alert').textContent).toBe(
      'Your hold cannot be extended any further. Please confirm your booking before the time left runs out.',
    );
    expect(screen.getByRole('timer', { name: 'Time left on your hold' }).textContent).toBe('01:00');
    expect(screen.getByRole('button', { name: 'Confirm booking' })).toBeTruthy();
    await advance(50_000);
    expect(server.calls('appointment-hold')).toHaveLength(1); // not tried again
  });

  it('says the hold is gone when its renewal is refused, and the button leads back to the calendar', async () => {
    server.on('/functions/appointment-hold', () => refuse('ABORTED', 409, 'This time has just been taken. Please choose another.', { alternatives: [] }));
    const rendered = renderReview();
    view = rendered;
    const { router } = rendered;
    seedBooking({ intake: completeIntake, fields: held(T0 + minutes(2)) });
    await advance(minutes(1)); // the renewal (a minute before the end) is refused
    expect(server.calls('appointment-hold')).toHaveLength(1);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('Your hold has expired. Please choose a time again. Choose a time again');
    expect(screen.queryByRole('timer')).toBeNull();
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Continue to choose a date and time' }));
    });
    expect(router.state.location.pathname).toBe('/b/appointment');
  });
});
