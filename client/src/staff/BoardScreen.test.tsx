import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, reply } from '../test/fakeServer';
import { renderApp } from '../test/renderApp';
import { admin, bookingRow, counselorSato, pushClinicDocument, resetClinicDocuments, staffToday } from '../test/staff';
import { HIGHLIGHT_MS } from './BoardScreen';
import { bookingsWindowPath, liveClinic, presencePath } from './liveClinic';

let view: ReturnType<typeof renderApp> | undefined;

// The board's window on Monday 3 March 2025 (Tokyo): that day and the 27 after it.
const BOOKINGS = bookingsWindowPath('demo-clinic', '2025-03-03', '2025-03-30');
const PRESENCE = presencePath('demo-clinic');
/** A snapshot of the window (its days' versions left out: no push follows it). */
const windowOf = (bookings: Record<string, unknown>[]) => ({ bookings, days: {} });

const first = [
  bookingRow('a-yesterday', { date: '2025-03-02' }),
  bookingRow('a-sato-11', { time: '11:00', payment: 'paid', serviceId: 'prenatal-b2c' }),
  bookingRow('a-tanaka', {
    counselorId: 'c-tanaka',
    time: '13:30',
    payment: 'refunded',
    refund: { status: 'refunded', amount: 8250, currency: 'JPY', share: 50 },
  }),
  bookingRow('a-sato-10'),
  bookingRow('a-hold', { date: '2025-03-04', status: 'draft', holdExpiresAt: '2025-03-03T00:05:30Z' }),
];

beforeEach(() => {
  // Monday 3 March 2025, 09:00 in Tokyo. Only Date is faked: the screens' own timers run.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2025-03-03T00:00:00Z'));
  resetClinicDocuments();
  fakeServer({
    '/functions/clinic-read': () =>
      reply({ id: 'demo-clinic', timezone: 'Asia/Tokyo', counselors: [{ id: 'c-sato', name: { ja: '佐藤', en: 'Sato' } }] }),
    '/functions/service-read': (body) => {
      const id = (body as { data: { id: string } }).data.id;
      return reply({ id, name: { ja: `サービス ${id}`, en: `Service ${id}` } });
    },
  });
});

afterEach(() => {
  view?.unmount();
  view = undefined;
  vi.useRealTimers();
});

const dayNamed = (name: RegExp) => screen.getByRole('region', { name });
const names = (element: HTMLElement) => within(element).getAllByRole('heading', { level: 3 }).map((h) => h.textContent);

describe('/staff: the bookings board', () => {
  it('groups today and the coming days by day then counselor, each booking with its details', async () => {
    view = renderApp('/staff', { user: staffToday });
    await screen.findByRole('heading', { level: 1, name: 'Bookings board' });
    expect(screen.getByText('Loading the bookings…')).toBeTruthy();
    await pushClinicDocument(BOOKINGS, windowOf(first));

    const today = await screen.findByRole('region', { name: /^Monday, March 3, 2025/ });
    expect(within(today).getByRole('heading', { level: 2 }).textContent).toBe('Monday, March 3, 2025 · Today · 3 bookings');
    expect(names(today)).toEqual(['Sato', 'Counselor c-tanaka']);
    const sato = within(today).getByRole('region', { name: 'Sato' });
    const links = within(sato).getAllByRole('link');
    await waitFor(() => {
      expect(links.map((a) => a.textContent)).toEqual(['10:00 Service cancer-b2b', '11:00 Service prenatal-b2c']);
    });
    expect(links[0]?.getAttribute('href')).toBe('/staff/appointments/a-sato-10');
    expect(within(sato).getAllByText('Confirmed')).toHaveLength(2);
    expect(within(sato).getByText('Payment: paid')).toBeTruthy();
    expect(within(sato).getByText('No payment')).toBeTruthy();
    expect(within(within(today).getByRole('region', { name: 'Counselor c-tanaka' })).getByText('Refunded ¥8,250')).toBeTruthy();

    const tomorrow = dayNamed(/^Tuesday, March 4, 2025/);
    expect(within(tomorrow).getByText('On hold')).toBeTruthy();
    expect(within(tomorrow).getByText('Hold ends in 05:30')).toBeTruthy();
    expect(screen.queryByRole('region', { name: /March 2, 2025/ })).toBeNull();
    expect(screen.getByText("Times are in the clinic's time zone: Japan Standard Time.")).toBeTruthy();
  });

  it('filters by counselor, service and status', async () => {
    const user = userEvent.setup();
    view = renderApp('/staff', { user: admin });
    await pushClinicDocument(BOOKINGS, windowOf(first));
    await screen.findByRole('region', { name: /March 3, 2025/ });

    await user.selectOptions(screen.getByLabelText('Counselor'), 'c-tanaka');
    expect(names(dayNamed(/March 3, 2025/))).toEqual(['Counselor c-tanaka']);
    expect(screen.queryByRole('region', { name: /March 4, 2025/ })).toBeNull();

    await user.selectOptions(screen.getByLabelText('Counselor'), '');
    await user.selectOptions(screen.getByLabelText('Status'), 'hold');
    expect(screen.queryByRole('region', { name: /March 3, 2025/ })).toBeNull();
    expect(dayNamed(/March 4, 2025/)).toBeTruthy();

    await user.selectOptions(screen.getByLabelText('Status'), '');
    await user.selectOptions(screen.getByLabelText('Service'), 'prenatal-b2c');
    const links = screen.getAllByRole('link', { name: /^\d\d:\d\d / });
    expect(links.map((a) => a.textContent)).toEqual(['11:00 Service prenatal-b2c']);

    await user.selectOptions(screen.getByLabelText('Status'), 'cancelled');
    expect(screen.getByText('No bookings match.')).toBeTruthy();
  });

  it("a counselor sees their own bookings by default, and can see everyone's", async () => {
    const user = userEvent.setup();
    view = renderApp('/staff', { user: counselorSato });
    await pushClinicDocument(BOOKINGS, windowOf(first));
    const today = await screen.findByRole('region', { name: /March 3, 2025/ });
    expect(names(today)).toEqual(['Sato']);
    expect(screen.getByLabelText<HTMLSelectElement>('Counselor').value).toBe('c-sato');
    await user.selectOptions(screen.getByLabelText('Counselor'), '');
    expect(names(dayNamed(/March 3, 2025/))).toEqual(['Sato', 'Counselor c-tanaka']);
  });

  it('announces a booking that appears (highlighted for a moment) and a cancellation, not the first snapshot', async () => {
    view = renderApp('/staff', { user: admin });
    await pushClinicDocument(BOOKINGS, windowOf(first));
    await screen.findByRole('region', { name: /March 3, 2025/ });
    const announcer = screen.getByTestId('board-announcer');
    expect(announcer.getAttribute('aria-live')).toBe('polite');
    expect(announcer.textContent).toBe('');

    await pushClinicDocument(BOOKINGS, windowOf([...first, bookingRow('a-new', { time: '15:00', counselorId: 'c-tanaka' })]));
    expect(announcer.textContent).toBe('New booking: Service cancer-b2b, Monday, March 3, 2025 15:00, Counselor c-tanaka.');
    const item = screen.getByRole('link', { name: '15:00 Service cancer-b2b' }).closest('li');
    expect(item?.hasAttribute('data-new')).toBe(true);
    expect(within(item as HTMLElement).getByText('New')).toBeTruthy();

    await pushClinicDocument(
      BOOKINGS,
      windowOf([...first.filter((b) => b.appointmentId !== 'a-tanaka'), bookingRow('a-tanaka', { counselorId: 'c-tanaka', time: '13:30', status: 'cancelled' }), bookingRow('a-new', { time: '15:00', counselorId: 'c-tanaka' })]),
    );
    expect(announcer.textContent).toBe('Booking canceled: Service cancer-b2b, Monday, March 3, 2025 13:30, Counselor c-tanaka.');
    expect(within(dayNamed(/March 3, 2025/)).getAllByText('Canceled')).toHaveLength(1);

    // The highlight fades after a while.
    act(() => {
      vi.setSystemTime(Date.now() + HIGHLIGHT_MS);
    });
    await waitFor(
      () => {
        expect(screen.getByRole('link', { name: '15:00 Service cancer-b2b' }).closest('li')?.hasAttribute('data-new')).toBe(false);
      },
      { timeout: HIGHLIGHT_MS + 2000 },
    );
  }, 15_000);

  it('applies the pushed changes of its window: a booking added, moved, and removed', async () => {
    view = renderApp('/staff', { user: admin });
    await pushClinicDocument(BOOKINGS, { bookings: first, days: { '2025-03-03': 4, '2025-03-04': 1, '2025-03-05': 0 } });
    await screen.findByRole('region', { name: /March 3, 2025/ });
    const announcer = screen.getByTestId('board-announcer');
    const changes = (day: string, version: number, ...entries: Record<string, unknown>[]) => {
      act(() => {
        liveClinic.receiveChanges({ path: 'clinics/demo-clinic/bookings', day, counselorId: null, version, changes: entries });
      });
    };
    changes('2025-03-05', 1, { type: 'added', appointmentId: 'a-new', doc: bookingRow('a-new', { date: '2025-03-05', time: '16:00' }) });
    expect(announcer.textContent).toBe('New booking: Service cancer-b2b, Wednesday, March 5, 2025 16:00, Sato.');
    expect(within(dayNamed(/March 5, 2025/)).getByRole('link', { name: '16:00 Service cancer-b2b' })).toBeTruthy();
    // Moved from the 5th to the 4th: removed from one day, added to the other.
    changes('2025-03-05', 2, { type: 'removed', appointmentId: 'a-new' });
    changes('2025-03-04', 2, { type: 'added', appointmentId: 'a-new', doc: bookingRow('a-new', { date: '2025-03-04', time: '09:30' }) });
    expect(screen.queryByRole('region', { name: /March 5, 2025/ })).toBeNull();
    expect(within(dayNamed(/March 4, 2025/)).getByRole('link', { name: '09:30 Service cancer-b2b' })).toBeTruthy();
    // A push of another clinic or of a day outside the window changes nothing.
    changes('2025-04-01', 1, { type: 'added', appointmentId: 'a-far', doc: bookingRow('a-far', { date: '2025-04-01' }) });
    expect(screen.queryByRole('region', { name: /April 1, 2025/ })).toBeNull();
    // Cancelled in place: modified, announced.
    changes('2025-03-03', 5, { type: 'modified', appointmentId: 'a-tanaka', doc: bookingRow('a-tanaka', { counselorId: 'c-tanaka', time: '13:30', status: 'cancelled' }) });
    expect(announcer.textContent).toBe('Booking canceled: Service cancer-b2b, Monday, March 3, 2025 13:30, Counselor c-tanaka.');
  });

  it('shows who is online and on which step, in Japanese', async () => {
    view = renderApp('/staff', { user: admin, locale: 'ja' });
    await screen.findByRole('heading', { level: 1, name: '予約ボード' });
    await pushClinicDocument(BOOKINGS, windowOf([]));
    expect(await screen.findByText('該当する予約はありません。')).toBeTruthy();
    const online = screen.getByRole('complementary', { name: 'オンライン中' });
    expect(within(online).getByText('オンラインの方はいません。')).toBeTruthy();
    await pushClinicDocument(PRESENCE, {
      online: [{ appointmentId: 'a7', step: 'family', since: '2025-03-03T00:02:00Z', lastSeen: '2025-03-03T00:03:00Z' }],
    });
    expect(within(online).getByRole('link', { name: '予約 a7' }).getAttribute('href')).toBe('/staff/appointments/a7');
    expect(within(online).getByText(/^入力中：/).textContent).toMatch(/^入力中：.+/);
    expect(within(online).getByText('09:02から')).toBeTruthy();
  });
});
