import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { auth } from '../auth/session';
import { confirmEmailLink } from '../auth/signIn';
import { completeIntake, readyBooking, seedBooking, summaryRows } from '../test/booking';
import { bindAuthToStore, fakeServer, reply, type FakeServer } from '../test/fakeServer';
import { renderApp } from '../test/renderApp';

let view: ReturnType<typeof renderApp> | undefined;
let server: FakeServer;

const confirmed = { ...readyBooking, status: 'confirmed', locale: 'en', joinUrl: 'https://meet.example.org/gc-abcdefghijklmnopqrstuvwx' };

/** appointments-mine's entry of the seeded appointment (a1), and an older one that took place. */
const mine = [
  {
    id: 'a1',
    clinicId: 'demo-clinic',
    serviceId: 'cancer-svc',
    status: 'confirmed',
    date: '2025-03-05',
    time: '11:00',
    timezone: 'Asia/Tokyo',
    personTimezone: null,
    start: '2025-03-05T11:00:00+09:00',
    end: '2025-03-05T12:00:00+09:00',
    counselorId: 'c-brown',
    payment: { amount: 16500, currency: 'JPY', status: 'paid', receiptUrl: 'https://pay.example/receipt/1' },
    cancellation: null,
    joinUrl: confirmed.joinUrl,
    created: '2025-02-01T00:00:00Z',
  },
  {
    id: 'a0',
    clinicId: 'demo-clinic',
    serviceId: 'cancer-svc',
    status: 'completed',
    date: '2024-10-01',
    time: '10:00',
    timezone: 'Asia/Tokyo',
    personTimezone: null,
    start: '2024-10-01T10:00:00+09:00',
    end: '2024-10-01T11:00:00+09:00',
    counselorId: 'c-brown',
    payment: null,
    cancellation: null,
    joinUrl: null,
    created: '2024-09-01T00:00:00Z',
  },
];

beforeEach(async () => {
  vi.stubEnv('TZ', 'Asia/Tokyo');
  server = fakeServer({
    '/auth/confirm': () => reply({ uid: 'u1', email: 'alice@example.com', token: 'bearer-1' }),
    '/functions/appointments-mine': () => reply({ appointments: mine }),
  });
  await bindAuthToStore();
});

afterEach(() => {
  vi.unstubAllEnvs();
  view?.unmount();
  view = undefined;
});

async function open(path: string, fields: Record<string, unknown> = confirmed) {
  const user = await confirmEmailLink(auth, 'alice@example.com', 'a-valid-link-token-of-some-length');
  view = renderApp(path, { user });
  seedBooking({ intake: completeIntake, fields });
}

const location = () => `${view?.router.state.location.pathname ?? ''}${view?.router.state.location.search ?? ''}`;

describe('/b/booking', () => {
  it('shows the booking: time with its end, payment and receipt, join link, calendar links, answers and the past one', async () => {
    await open('/b/booking');
    const card = await screen.findByRole('region', { name: 'Your appointment' }, { timeout: 10_000 });
    expect(summaryRows(card)).toEqual([
      ['Service', 'Hereditary cancer counseling'],
      ['Status', 'Booked'],
      ['Date and time', 'Wed, Mar 5, 11:00 Japan Standard Time'],
      ['Ends at', '12:00'],
      ['Counselor', 'Counselor c-brown'],
      ['Payment', '¥16,500 paid Receipt'],
    ]);
    expect(within(card).getByRole('link', { name: 'Receipt' }).getAttribute('href')).toBe('https://pay.example/receipt/1');
    expect(within(card).getByRole('link', { name: 'Join the video session' }).getAttribute('href')).toBe(confirmed.joinUrl);
    const google = new URL(within(card).getByRole('link', { name: 'Google Calendar' }).getAttribute('href') ?? '');
    expect(google.searchParams.get('dates')).toBe('20250305T020000Z/20250305T030000Z');
    expect(within(card).getByRole('link', { name: 'Outlook' }).getAttribute('href')).toContain('outlook.live.com');
    expect(within(card).getByRole('link', { name: 'Change the date and time' }).getAttribute('href')).toBe('/b/reschedule?id=a1');
    expect(screen.getByRole('region', { name: 'Your answers' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Edit/ })).toBeNull();
    const others = screen.getByRole('region', { name: 'Your other appointments' });
    expect(within(others).getByRole('link', { name: 'See this appointment' }).getAttribute('href')).toBe('/b/booking?id=a0');
    expect(within(others).getByText('Took place')).toBeTruthy();
  });

  it('opens the cancel dialog at once with ?action=cancel, and forgets the action when kept', async () => {
    const user = userEvent.setup();
    await open('/b/booking?id=a1&action=cancel');
    const dialog = await screen.findByRole('dialog', { name: 'Cancel your appointment' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep my appointment' }));
    await waitFor(() => {
      expect(location()).toBe('/b/booking?id=a1');
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows a past appointment with no way to change it', async () => {
    await open('/b/booking?id=a0');
    const card = await screen.findByRole('region', { name: 'Your appointment' }, { timeout: 10_000 });
    expect(within(card).getByText('This appointment has taken place.')).toBeTruthy();
    // Not the appointment the record names: booking again starts from the current one.
    expect(within(card).queryByRole('button', { name: 'Yes, use my previous answers' })).toBeNull();
    expect(within(card).queryByRole('button', { name: 'Cancel appointment' })).toBeNull();
    expect(within(card).queryByRole('link', { name: 'Google Calendar' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Your answers' })).toBeNull();
  });
});

describe('landing', () => {
  it.each(['/b/clinic', '/b/', '/b/contact', '/b/expectations'])('sends a booked person from %s to My booking', async (path) => {
    await open(path);
    await screen.findByRole('heading', { level: 1, name: 'My booking' });
    expect(location()).toBe('/b/booking');
    expect(server.calls('appointments-mine').length).toBeGreaterThan(0);
  });

  it('sends a booked person from the login screen to My booking', async () => {
    await open('/');
    await screen.findByRole('heading', { level: 1, name: 'My booking' });
    expect(location()).toBe('/b/booking');
  });

  it('keeps a draft on the questionnaire', async () => {
    await open('/b/contact', { ...confirmed, status: 'draft' });
    await screen.findByRole('heading', { level: 1, name: 'Contact information' });
    expect(location()).toBe('/b/contact');
  });
});
