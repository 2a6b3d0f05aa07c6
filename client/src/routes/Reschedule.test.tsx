import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { completeIntake, pushMonth, readyBooking, resetMonths, seedBooking, slot } from '../test/booking';
import { fakeServer, refuse, reply, type FakeServer } from '../test/fakeServer';
import { alice, renderApp } from '../test/renderApp';

let view: ReturnType<typeof renderApp> | undefined;
let server: FakeServer;

/** Booked for Wednesday 5 March 2025 11:00 in Tokyo with c-brown. */
const booked = { ...readyBooking, status: 'confirmed', locale: 'en', holdExpiresAt: null };
const march = [slot('2025-03-06T09:00'), slot('2025-03-20T14:00'), slot('2025-03-20T15:00')];

beforeEach(() => {
  vi.stubEnv('TZ', 'Asia/Tokyo');
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2025-03-03T00:00:00Z')); // Monday 3 March, 09:00 in Tokyo
  resetMonths();
  server = fakeServer({ '/functions/appointment-reschedule': () => reply({ status: 'confirmed', moved: true }) });
});

afterEach(() => {
  vi.unstubAllEnvs();
  view?.unmount();
  view = undefined;
  vi.useRealTimers();
});

async function openReschedule() {
  view = renderApp('/b/reschedule?id=a1', { user: alice, locale: 'en' });
  seedBooking({ intake: completeIntake, fields: booked, locale: 'en' });
  await screen.findByRole('heading', { level: 1, name: 'Change the time of your appointment' });
}

describe('/b/reschedule', () => {
  it('shows the current time, asks to confirm the move from it to the new one, and moves', async () => {
    const user = userEvent.setup();
    await openReschedule();
    expect(screen.getByText('Your appointment is now at Wed, Mar 5, 11:00 Japan Standard Time.')).toBeTruthy();
    await pushMonth('2025-03', march);
    await user.click(screen.getByRole('button', { name: 'Thursday, March 20, 2025' }));
    await user.click(screen.getByRole('radio', { name: '14:00' }));
    expect(
      screen.getByText('Move your appointment from Wed, Mar 5, 11:00 Japan Standard Time to Thu, Mar 20, 14:00 Japan Standard Time?'),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Move my appointment' }));
    expect(await screen.findByText(/^Done\. Your appointment is now at Thu, Mar 20, 14:00 Japan Standard Time\./)).toBeTruthy();
    expect(server.calls('appointment-reschedule')).toEqual([
      { appointmentId: 'a1', start: '2025-03-20T14:00:00+09:00', counselorId: 'any', personTimezone: 'Asia/Tokyo' },
    ]);
    expect(screen.getByRole('link', { name: 'Back to my booking' }).getAttribute('href')).toBe('/b/booking?id=a1');
  });

  it('says a time taken meanwhile is gone, offers the nearest free ones, and keeps the old time', async () => {
    server.on('/functions/appointment-reschedule', () =>
      refuse('ABORTED', 409, 'This time has just been taken.', { alternatives: [slot('2025-03-20T15:00')] }),
    );
    const user = userEvent.setup();
    await openReschedule();
    await pushMonth('2025-03', march);
    await user.click(screen.getByRole('button', { name: 'Thursday, March 20, 2025' }));
    await user.click(screen.getByRole('radio', { name: '14:00' }));
    await user.click(screen.getByRole('button', { name: 'Move my appointment' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Thu, Mar 20, 14:00 Japan Standard Time has just been taken');
    await user.click(within(alert).getByRole('button', { name: 'Thu, Mar 20, 15:00 Japan Standard Time' }));
    expect(screen.getByText(/^Move your appointment from .* to Thu, Mar 20, 15:00 Japan Standard Time\?$/)).toBeTruthy();
    expect(screen.getByText('Your appointment is now at Wed, Mar 5, 11:00 Japan Standard Time.')).toBeTruthy();
  });

  it('inside the minimum notice says why the time cannot move and offers to cancel instead', async () => {
    vi.setSystemTime(new Date('2025-03-04T03:00:00Z')); // 12:00 on 4 March: within 24 hours of the start
    await openReschedule();
    expect(screen.getByText(/can be changed only until Tue, Mar 4, 11:00 Japan Standard Time/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Cancel this appointment' }).getAttribute('href')).toBe('/b/booking?id=a1&action=cancel');
    expect(screen.queryByRole('grid')).toBeNull();
  });
});
