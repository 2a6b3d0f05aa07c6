import { describe, expect, it } from 'vitest';
import { bookingRow as row } from '../test/staff';
import { boardChanges, filterOptions, groupBoard, NO_FILTERS, parseBookings, parsePresence, type BoardBooking } from './board';

const NOW = Date.parse('2025-03-03T00:00:00Z'); // 09:00 in Tokyo, Monday 3 March

const feed = (...rows: Record<string, unknown>[]) => parseBookings({ bookings: rows });

describe('parseBookings', () => {
  it('reads the rows of the feed, leaving out malformed ones', () => {
    const rows = parseBookings({ bookings: [row('a1', { holdExpiresAt: '2025-03-03T00:10:00Z', payment: 'open' }), { status: 'x' }, 'junk'] });
    expect(rows).toEqual([
      {
        appointmentId: 'a1',
        serviceId: 'cancer-b2b',
        status: 'confirmed',
        date: '2025-03-03',
        time: '10:00',
        timezone: 'Asia/Tokyo',
        counselorId: 'c-sato',
        holdExpiresAt: Date.parse('2025-03-03T00:10:00Z'),
        payment: 'open',
        refund: null,
        updated: '2025-03-02T00:00:00Z',
      },
    ]);
    const refunded = parseBookings({ bookings: [row('a2', { refund: { status: 'refund_pending', amount: 8250, currency: 'JPY', share: 50 } })] });
    expect(refunded[0]?.refund).toEqual({ state: 'pending', price: { amount: 8250, currency: 'JPY' } });
    expect(parseBookings(null)).toEqual([]);
    expect(parsePresence({ online: [{ appointmentId: 'a9', step: 'family', since: 's', lastSeen: 'l' }, {}] })).toEqual([
      { appointmentId: 'a9', step: 'family', since: 's', lastSeen: 'l' },
    ]);
  });
});

describe('groupBoard', () => {
  const bookings: BoardBooking[] = feed(
    row('past', { date: '2025-03-02' }),
    row('t-sato-11', { time: '11:00' }),
    row('t-tanaka', { counselorId: 'c-tanaka', serviceId: 'pgt-post' }),
    row('t-sato-10'),
    row('t-none', { counselorId: null, time: '09:00' }),
    row('tomorrow', { date: '2025-03-04', status: 'pending_payment', payment: 'open' }),
    row('hold', { date: '2025-03-05', status: 'draft', holdExpiresAt: '2025-03-03T00:05:00Z' }),
    row('lapsed', { date: '2025-03-05', status: 'draft', holdExpiresAt: '2025-03-02T23:00:00Z' }),
    row('no-time', { date: null, time: null, status: 'draft' }),
  );

  it('shows today and later, by day, then counselor (unassigned last), then time', () => {
    const days = groupBoard(bookings, '2025-03-03', NO_FILTERS, NOW);
    expect(days.map((d) => [d.date, d.counselors.map((c) => [c.counselorId, c.bookings.map((b) => b.appointmentId)])])).toEqual([
      [
        '2025-03-03',
        [
          ['c-sato', ['t-sato-10', 't-sato-11']],
          ['c-tanaka', ['t-tanaka']],
          [null, ['t-none']],
        ],
      ],
      ['2025-03-04', [['c-sato', ['tomorrow']]]],
      ['2025-03-05', [['c-sato', ['hold']]]],
    ]);
  });

  it('filters by counselor, service and status (a hold is "hold")', () => {
    const ids = (filters: Partial<typeof NO_FILTERS>) =>
      groupBoard(bookings, '2025-03-03', { ...NO_FILTERS, ...filters }, NOW).flatMap((d) =>
        d.counselors.flatMap((c) => c.bookings.map((b) => b.appointmentId)),
      );
    expect(ids({ counselorId: 'c-tanaka' })).toEqual(['t-tanaka']);
    expect(ids({ serviceId: 'pgt-post' })).toEqual(['t-tanaka']);
    expect(ids({ status: 'hold' })).toEqual(['hold']);
    expect(ids({ status: 'pending_payment', counselorId: 'c-sato' })).toEqual(['tomorrow']);
    expect(ids({ status: 'confirmed', counselorId: 'c-tanaka', serviceId: 'cancer-b2b' })).toEqual([]);
    expect(filterOptions(bookings)).toEqual({
      counselorIds: ['c-sato', 'c-tanaka'],
      serviceIds: ['cancer-b2b', 'pgt-post'],
      statuses: ['confirmed', 'hold', 'pending_payment'],
    });
  });
});

describe('boardChanges', () => {
  it('announces nothing for the first snapshot, then new bookings and cancellations', () => {
    const first = feed(row('a1'), row('a2'));
    expect(boardChanges(null, first, NOW)).toEqual([]);
    const second = feed(row('a1', { status: 'cancelled' }), row('a2', { status: 'completed' }), row('a3', { time: '15:00' }));
    expect(boardChanges(first, second, NOW).map((c) => [c.kind, c.booking.appointmentId])).toEqual([
      ['cancelled', 'a1'],
      ['new', 'a3'],
    ]);
    // Cancelled again, or unchanged: nothing more.
    expect(boardChanges(second, second, NOW)).toEqual([]);
  });

  it('a hold placed is new; its lapse is not a cancellation', () => {
    const hold = feed(row('h1', { status: 'draft', holdExpiresAt: '2025-03-03T00:10:00Z' }));
    expect(boardChanges([], hold, NOW).map((c) => c.kind)).toEqual(['new']);
    expect(boardChanges(hold, feed(row('h1', { status: 'draft', holdExpiresAt: null, date: null, time: null })), NOW)).toEqual([]);
  });
});
