import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '../booking/navigation';
import { completeIntake, pushAppointment, readyBooking, seedBooking, summaryRows } from '../test/booking';
import { fakeServer, refuse, reply, type FakeServer } from '../test/fakeServer';
import { alice, renderApp } from '../test/renderApp';

let view: ReturnType<typeof renderApp> | undefined;
let server: FakeServer;

const T0 = Date.parse('2025-03-03T00:00:00Z');
const priced = { price: { amount: 16500, currency: 'JPY' } };

/** Submitted, waiting for its payment; the hold covers the open checkout session. */
const pending = {
  ...readyBooking,
  status: 'pending_payment',
  locale: 'en',
  holdExpiresAt: new Date(T0 + 36 * 60_000).toISOString(),
  payment: { status: 'open', sessionId: 'cs_test_1', url: 'http://127.0.0.1:12111/pay/cs_test_1', attempt: 1 },
};

beforeEach(() => {
  // The person is in the clinic's zone unless a test says otherwise (one time shown).
  vi.stubEnv('TZ', 'Asia/Tokyo');
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T0);
  server = fakeServer();
});

afterEach(() => {
  vi.unstubAllEnvs();
  view?.unmount();
  view = undefined;
  vi.useRealTimers();
});

function open(path: string, fields: Record<string, unknown>, locale: 'en' | 'ja' = 'en') {
  view = renderApp(path, { user: alice, locale });
  seedBooking({ intake: completeIntake, fields: { ...fields, locale }, service: priced, locale });
  return view;
}

describe('/b/checkout', () => {
  it('shows the service, the price, the held time and its countdown, then goes to the payment page', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    server.on('/functions/stripe-createCheckoutSession', () =>
      reply({ sessionId: 'cs_test_1', url: 'http://127.0.0.1:12111/pay/cs_test_1' }),
    );
    const user = userEvent.setup();
    open('/b/checkout', pending);
    const card = await screen.findByRole('region', { name: 'Your booking' });
    expect(summaryRows(card)).toEqual([
      ['Service', 'Hereditary cancer counseling'],
      ['Price', '¥16,500'],
      ['Date and time', 'Wed, Mar 5, 11:00 Japan Standard Time'],
      ['Counselor', 'Counselor c-brown'],
      ['Language of your e-mails', 'English'],
    ]);
    // The payment's own hold (the checkout session's end and its grace), at the top of the page.
    expect((await screen.findByRole('timer', { name: 'Time left to pay' }, { timeout: 5000 })).textContent).toBe('36:00');

    await user.click(within(card).getByRole('button', { name: 'Pay by card' }));
    await waitFor(() => {
      expect(assign).toHaveBeenCalledWith('http://127.0.0.1:12111/pay/cs_test_1');
    });
    expect(server.calls('stripe-createCheckoutSession')).toEqual([{ appointmentId: 'a1' }]);
    expect(screen.getByText('Opening the secure payment page…')).toBeTruthy();
  });

  it('sends the person back to the calendar when the hold is gone (ABORTED)', async () => {
    server.on('/functions/stripe-createCheckoutSession', () => refuse('ABORTED', 409, 'Your hold has expired. Please choose a time again.'));
    const user = userEvent.setup();
    open('/b/checkout', pending);
    await user.click(await screen.findByRole('button', { name: 'Pay by card' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your hold has expired. Please choose a time again.');
    expect(within(alert).getByRole('link', { name: 'Choose a time again' }).getAttribute('href')).toBe('/b/appointment');
  });

  it('asks for the review first when the booking was not submitted', async () => {
    open('/b/checkout', { ...pending, status: 'draft', payment: null });
    expect(await screen.findByRole('link', { name: 'Go to the review' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Pay by card' })).toBeNull();
  });

  it('speaks Japanese', async () => {
    open('/b/checkout', pending, 'ja');
    expect(await screen.findByRole('button', { name: 'カードで支払う' })).toBeTruthy();
    expect(screen.getByText('16,500円')).toBeTruthy();
  });
});

describe('/b/payment-confirmed', () => {
  it('waits with a spinner, following the appointment, and shows the confirmation once it is confirmed', async () => {
    server.on('/functions/stripe-getSessionStatus', () =>
      reply({ status: 'complete', paymentStatus: 'paid', appointmentId: 'a1', appointmentStatus: 'pending_payment', payment: 'open' }),
    );
    const app = open('/b/payment-confirmed?sessionId=cs_test_1', pending);
    const spinner = await screen.findByText('Confirming your payment…');
    expect(spinner.getAttribute('role')).toBe('status');
    await waitFor(() => {
      expect(server.calls('stripe-getSessionStatus')).toEqual([{ sessionId: 'cs_test_1' }]);
    });
    expect(screen.queryByRole('alertdialog')).toBeNull();

    // The webhook confirms the booking: the appointment is pushed.
    pushAppointment({ status: 'confirmed', joinUrl: 'https://meet.example.org/gc-x', payment: { ...pending.payment, status: 'paid' } });
    await screen.findByRole('heading', { level: 1, name: 'Appointment confirmed' }, { timeout: 5000 });
    expect(app.router.state.location.pathname).toBe('/b/confirmed');
    expect(server.calls('stripe-getSessionStatus')).toHaveLength(1);
  });

  it('shows the failure dialog when the payment expired, and "Try again" leads back to the calendar', async () => {
    server.on('/functions/stripe-getSessionStatus', () =>
      reply({ status: 'open', paymentStatus: 'unpaid', appointmentId: 'a1', appointmentStatus: 'pending_payment', payment: 'open' }),
    );
    const user = userEvent.setup();
    const app = open('/b/payment-confirmed?sessionId=cs_test_1', pending);
    await screen.findByText('Confirming your payment…');
    // The hold lapsed: the appointment is a draft again and forgets its time.
    pushAppointment({
      status: 'draft',
      date: null,
      time: null,
      counselorId: null,
      holdExpiresAt: null,
      payment: { ...pending.payment, status: 'expired' },
    });
    const dialog = await screen.findByRole('alertdialog', { name: 'Payment not completed' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(
      within(dialog).getByText(
        'Your payment failed or was canceled, so your appointment is not confirmed. Please try again or contact us.',
      ),
    ).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Contact us' }).getAttribute('href')).toBe('/contact?id=a1');
    const retry = within(dialog).getByRole('button', { name: 'Try again' });
    expect(document.activeElement).toBe(retry);
    await user.click(retry);
    await screen.findByRole('heading', { level: 1, name: 'Choose a date and time' }, { timeout: 5000 });
    expect(app.router.state.location.pathname).toBe('/b/appointment');
  });

  it('fails at once when the provider says the session expired, and retries at the checkout while the payment is awaited', async () => {
    server.on('/functions/stripe-getSessionStatus', () =>
      reply({ status: 'expired', paymentStatus: 'unpaid', appointmentId: 'a1', appointmentStatus: 'pending_payment', payment: 'open' }),
    );
    const user = userEvent.setup();
    const app = open('/b/payment-confirmed?sessionId=cs_test_1', pending);
    const dialog = await screen.findByRole('alertdialog', { name: 'Payment not completed' });
    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('button', { name: 'Pay by card' }, { timeout: 5000 });
    expect(app.router.state.location.pathname).toBe('/b/checkout');
  });

  it('speaks Japanese', async () => {
    server.on('/functions/stripe-getSessionStatus', () => refuse('NOT_FOUND', 404, 'No such payment session.'));
    open('/b/payment-confirmed?sessionId=cs_unknown', pending, 'ja');
    const dialog = await screen.findByRole('alertdialog', { name: 'お支払いが完了しませんでした' });
    expect(
      within(dialog).getByText(
        'お支払いが完了しなかったか、キャンセルされたため、予約は確定していません。もう一度お試しいただくか、お問い合わせください。',
      ),
    ).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'もう一度試す' })).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'お問い合わせ' })).toBeTruthy();
  });
});

describe('/b/review?payment=cancelled', () => {
  it('shows the failure dialog; "Try again" goes to the checkout, which reuses the open session', async () => {
    const user = userEvent.setup();
    const app = open('/b/review?payment=cancelled', pending);
    const dialog = await screen.findByRole('alertdialog', { name: 'Payment not completed' });
    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('button', { name: 'Pay by card' }, { timeout: 5000 });
    expect(app.router.state.location.pathname).toBe('/b/checkout');
  });

  it('closes, leaving the review with its way on to the payment', async () => {
    const user = userEvent.setup();
    const app = open('/b/review?payment=cancelled', pending);
    const dialog = await screen.findByRole('alertdialog', { name: 'Payment not completed' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(app.router.state.location.search).toBe('');
    expect(screen.getByRole('button', { name: 'Continue to payment' })).toBeTruthy();
    // The review keeps showing the chosen time, and the time left to pay.
    expect(summaryRows(screen.getByRole('region', { name: 'Your appointment' }))).toEqual([
      ['Date and time', 'Wed, Mar 5, 11:00 Japan Standard Time'],
      ['Counselor', 'Counselor c-brown'],
      ['Language of your e-mails', 'English'],
    ]);
    expect(screen.getByRole('timer', { name: 'Time left to pay' }).textContent).toBe('36:00');
    expect(server.calls('appointment-hold')).toEqual([]); // a booking waiting for its payment is not renewed
  });
});
