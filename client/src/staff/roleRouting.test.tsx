import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rememberEmailForSignIn } from '../auth/emailLink';
import { auth } from '../auth/session';
import { bindAuthToStore, fakeServer, reply, type FakeServer } from '../test/fakeServer';
import { alice, renderApp } from '../test/renderApp';
import { admin, counselorSato, staffToday } from '../test/staff';
import type { AuthUser } from '../store/types';

let view: ReturnType<typeof renderApp> | undefined;
let server: FakeServer;

beforeEach(() => {
  server = fakeServer({ '/functions/analytics-log': () => reply({ logged: true }) });
});

afterEach(() => {
  view?.unmount();
  view = undefined;
});

const location = () => `${view?.router.state.location.pathname ?? ''}${view?.router.state.location.search ?? ''}`;

describe('a staff identity never lands in the questionnaire', () => {
  it.each([
    ['clinic_staff (today)', staffToday],
    ['clinic_admin', admin],
    ['counselor', counselorSato],
  ] as const)('%s opening a booking step is told it is for patients, with the way to the board', async (_, user) => {
    view = renderApp('/b/patient', { user });
    await screen.findByRole('heading', { level: 1, name: 'This page is for patients' });
    expect(location()).toBe('/b/patient');
    expect(screen.getByRole('link', { name: 'Go to the bookings board' }).getAttribute('href')).toBe('/staff');
    expect(screen.queryByRole('status')).toBeNull(); // no spinner waiting for an appointment staff cannot have
    expect(server.requests.map((request) => request.url)).not.toContain('/functions/appointment-create');
  });

  it('in Japanese too, and the link leads to the board', async () => {
    view = renderApp('/b/review', { user: staffToday, locale: 'ja' });
    await screen.findByRole('heading', { level: 1, name: 'このページは患者さま向けです' });
    await userEvent.setup().click(screen.getByRole('link', { name: '予約ボードへ' }));
    await screen.findByRole('heading', { level: 1, name: '予約ボード' });
    expect(location()).toBe('/staff');
  });

  it.each([
    ['required', 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.'],
    ['enrol', 'Set up your authenticator app for this account, then enter the 6-digit code it shows.'],
  ] as const)('a session whose second factor is "%s" goes to the second factor first', async (secondFactor, lead) => {
    const user: AuthUser = { ...admin, secondFactor };
    view = renderApp('/staff/appointments/a1', { user });
    await screen.findByRole('heading', { level: 1, name: 'Second sign-in step' });
    expect(screen.getByText(lead)).toBeTruthy();
    expect(location()).toBe('/staff/second-factor');
    expect(view.router.state.location.state).toEqual({ from: '/staff/appointments/a1' });
  });

  it('the sign-in page offers a signed-in staff member the board, not the booking', async () => {
    view = renderApp('/', { user: staffToday });
    expect((await screen.findByRole('link', { name: 'Go to the bookings board' })).getAttribute('href')).toBe('/staff');
    expect(screen.queryByRole('link', { name: 'Continue your booking' })).toBeNull();
  });

  it('an appointment link opens the appointment page, with the way back to the board', async () => {
    view = renderApp('/staff/appointments/a1', { user: admin });
    await screen.findByRole('heading', { level: 1, name: 'Appointment a1' });
    expect(screen.getByRole('link', { name: 'Back to the bookings board' }).getAttribute('href')).toBe('/staff');
  });
});

describe('/staff for anyone else', () => {
  it('a client sees a plain page for clinic staff, with the way back to their booking', async () => {
    const user = userEvent.setup();
    view = renderApp('/staff', { user: alice });
    await screen.findByRole('heading', { level: 1, name: 'This page is for clinic staff' });
    expect(server.requests.filter((r) => r.url.startsWith('/functions/'))).toEqual([]);
    await user.click(screen.getByRole('link', { name: 'Back to your booking' }));
    await waitFor(() => {
      expect(location()).toBe('/b/clinic');
    });
  });

  it('a client sees it in Japanese too', async () => {
    view = renderApp('/staff/second-factor', { user: alice, locale: 'ja' });
    await screen.findByRole('heading', { level: 1, name: 'このページはクリニックのスタッフ専用です' });
    expect(screen.getByRole('link', { name: 'ご予約に戻る' })).toBeTruthy();
  });

  it('a signed-out visitor goes to sign-in, coming back to /staff afterwards', async () => {
    view = renderApp('/staff');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(location()).toBe('/?next=%2Fstaff');
  });
});

describe('signing in by e-mail link as staff', () => {
  it('lands on the board, not in the questionnaire', async () => {
    let signedIn = false;
    server.on('/auth/session', () => reply(signedIn ? { ...staffToday } : null));
    server.on('/auth/confirm', () => {
      signedIn = true;
      return reply({ uid: staffToday.uid, email: staffToday.email, token: 'bearer-s' });
    });
    await bindAuthToStore();
    rememberEmailForSignIn(staffToday.email, {});
    view = renderApp('/login-confirmation?token=k3Jd9fQ2xLm8Rt5vWz1yBc4nHs7pGa0eUi6oTq2rYw');
    await screen.findByRole('heading', { level: 1, name: 'Bookings board' }, { timeout: 5000 });
    expect(location()).toBe('/staff');
    await auth.signOut();
  });
});
