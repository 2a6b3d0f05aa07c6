import { describe, expect, it } from 'vitest';
import { defaultRange, liveOffer, waitlistOf } from './waitlist';

const now = Date.parse('2025-03-05T00:00:00Z');
const offered = {
  status: 'draft',
  date: '2025-03-06',
  time: '10:00',
  timezone: 'Asia/Tokyo',
  counselorId: 'c-sato',
  holdExpiresAt: '2025-03-05T02:00:00.000Z',
  waitlist: {
    from: '2025-03-06',
    to: '2025-03-10',
    counselorId: null,
    status: 'offered',
    joinedAt: '2025-03-01T00:00:00.000Z',
    offer: { start: '2025-03-06T10:00:00+09:00', counselorId: 'c-sato', until: '2025-03-05T02:00:00.000Z' },
  },
};

describe('the waitlist of an appointment', () => {
  it('reads the place and the offer in the clinic zone', () => {
    expect(waitlistOf(offered, 'Asia/Tokyo')).toEqual({
      from: '2025-03-06',
      to: '2025-03-10',
      counselorId: null,
      status: 'offered',
      offer: {
        start: '2025-03-06T10:00:00+09:00',
        date: '2025-03-06',
        time: '10:00',
        counselorId: 'c-sato',
        until: Date.parse('2025-03-05T02:00:00Z'),
        untilTime: '11:00',
      },
    });
  });

  it('is null without one, or with one it cannot read', () => {
    expect(waitlistOf({ waitlist: null }, 'UTC')).toBeNull();
    expect(waitlistOf({ waitlist: { from: '2025-03-06', to: 'soon', status: 'waiting' } }, 'UTC')).toBeNull();
    expect(waitlistOf({ waitlist: { from: '2025-03-06', to: '2025-03-07', status: 'maybe' } }, 'UTC')).toBeNull();
  });

  it('keeps no offer unless offered', () => {
    const lapsed = { ...offered, waitlist: { ...offered.waitlist, status: 'lapsed' } };
    expect(waitlistOf(lapsed, 'Asia/Tokyo')?.offer).toBeNull();
  });
});

describe('the live offer', () => {
  it('is the offer while the draft holds that time', () => {
    expect(liveOffer(offered, 'Asia/Tokyo', now)?.time).toBe('10:00');
  });

  it('is gone once its hold ends, or when another time is held', () => {
    expect(liveOffer(offered, 'Asia/Tokyo', Date.parse('2025-03-05T02:00:00Z'))).toBeNull();
    expect(liveOffer({ ...offered, time: '11:00' }, 'Asia/Tokyo', now)).toBeNull();
    expect(liveOffer({ ...offered, status: 'pending_payment' }, 'Asia/Tokyo', now)).toBeNull();
  });
});

describe('the default range', () => {
  it('runs a week from the chosen day, within the horizon', () => {
    expect(defaultRange('2025-03-05', '2025-05-04', '2025-03-10')).toEqual({ from: '2025-03-10', to: '2025-03-16' });
    expect(defaultRange('2025-03-05', '2025-03-12', '')).toEqual({ from: '2025-03-05', to: '2025-03-11' });
    expect(defaultRange('2025-03-05', '2025-03-08', '2025-03-01')).toEqual({ from: '2025-03-05', to: '2025-03-08' });
  });
});
