import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeServer, refuse, reply, type FakeServer } from '../test/fakeServer';
import { completeIntake, seedAppointment } from '../test/intake';
import { alice, renderApp } from '../test/renderApp';
import { useAppStore } from '../store';

let view: ReturnType<typeof renderApp> | undefined;
let server: FakeServer;

/** appointments-mine's entry of the ended appointment a1 (My booking lists it). */
function ended(status: string) {
  return {
    id: 'a1',
    clinicId: 'demo-clinic',
    serviceId: 'cancer-svc',
    status,
    date: '2025-03-05',
    time: '11:00',
    timezone: 'Asia/Tokyo',
    personTimezone: null,
    start: '2025-03-05T11:00:00+09:00',
    end: '2025-03-05T12:00:00+09:00',
    counselorId: 'c-brown',
    payment: null,
    cancellation: null,
    joinUrl: null,
    created: '2025-02-01T00:00:00Z',
  };
}

function answering(status: string) {
  server.on('/functions/appointments-mine', () => reply({ appointments: [ended(status)] }));
}

beforeEach(() => {
  server = fakeServer({ '/functions/appointment-create': () => reply({ appointmentId: 'a2' }) });
});
afterEach(() => {
  view?.unmount();
  view = undefined;
});

/** The person's record moves on to the new appointment a2, as the server pushes it. */
function pushNewAppointment() {
  act(() => {
    const state = useAppStore.getState();
    state.receiveSnapshot({ path: 'users/u1', exists: true, data: { appointmentId: 'a2', locale: 'en' }, version: 2 });
    state.receiveSnapshot({
      path: 'appointments/a2',
      exists: true,
      data: { id: 'a2', clinicId: 'demo-clinic', serviceId: 'cancer-svc', status: 'draft', intake: completeIntake, copiedFrom: 'a1' },
      version: 1,
    });
  });
}

describe('starting again after an ended appointment', () => {
  it('asks on My booking before copying the answers of a cancelled appointment, then opens the first step of the new one', async () => {
    const user = userEvent.setup();
    answering('cancelled');
    view = renderApp('/b/clinic', { user: alice });
    seedAppointment({ category: 'cancer', intake: completeIntake, fields: { status: 'cancelled', patientRole: 90 } });
    // No questionnaire step for an ended appointment: My booking asks. The first test loads the lazy route modules.
    const question = { level: 2, name: 'Start from your previous answers?' } as const;
    expect(await screen.findByRole('heading', question, { timeout: 10_000 })).toBeTruthy();
    expect(view.router.state.location.pathname).toBe('/b/booking');
    expect(screen.getByText('This appointment was canceled.')).toBeTruthy();
    expect(server.calls('appointment-create')).toEqual([]); // nothing before the person chooses
    await user.click(screen.getByRole('button', { name: 'Yes, use my previous answers' }));
    await waitFor(() => {
      expect(server.calls('appointment-create')).toEqual([{ copyFrom: 'a1' }]);
    });
    pushNewAppointment();
    await waitFor(() => {
      expect(view?.router.state.location.pathname).toBe('/b/clinic');
    });
    expect(screen.queryByRole('heading', question)).toBeNull();
  });

  it('starts empty when the person says no, and says why a failure happened so they can try again', async () => {
    const user = userEvent.setup();
    server.on('/functions/appointment-create', () => refuse('UNAVAILABLE', 503, 'Try again.'));
    answering('expired');
    view = renderApp('/b/review', { user: alice, locale: 'ja' });
    seedAppointment({ category: 'cancer', intake: completeIntake, fields: { status: 'expired' }, locale: 'ja' });
    expect(await screen.findByRole('button', { name: 'いいえ、最初から入力する' }, { timeout: 10_000 })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'いいえ、最初から入力する' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(server.calls('appointment-create').every((data) => JSON.stringify(data) === '{}')).toBe(true);
    const refused = server.calls('appointment-create').length; // with the client's retries
    server.on('/functions/appointment-create', () => reply({ appointmentId: 'a2' }));
    await user.click(screen.getByRole('button', { name: 'いいえ、最初から入力する' }));
    await waitFor(() => {
      expect(server.calls('appointment-create')).toHaveLength(refused + 1);
    });
    pushNewAppointment();
    await waitFor(() => {
      expect(view?.router.state.location.pathname).toBe('/b/clinic');
    });
  });

  it('offers a plain new booking when the ended appointment holds no answers', async () => {
    answering('no_show');
    view = renderApp('/b/clinic', { user: alice });
    seedAppointment({ category: 'cancer', fields: { status: 'no_show' } });
    expect(await screen.findByRole('button', { name: 'Start a new booking' }, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Yes, use my previous answers' })).toBeNull();
  });
});
