import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeServer, refuse, reply, type FakeServer } from '../test/fakeServer';
import { renderApp } from '../test/renderApp';
import { admin } from '../test/staff';

let view: ReturnType<typeof renderApp> | undefined;
let server: FakeServer;
let status = 'confirmed';
/** The person's contact answers and the contact details the server derives from them. */
let person = {
  contactInfo: { lastName: 'ヤマダ', firstName: 'ハナコ', country: 'JP' } as Record<string, string>,
  contact: { email: 'hanako@example.com', intakeEmail: null, name: 'ヤマダ ハナコ', lastName: 'ヤマダ', firstName: 'ハナコ', phone: null as string | null },
};
const inJapan = person;

function appointmentReply() {
  return reply({
    appointment: {
      id: 'a-1',
      clinicId: 'demo-clinic',
      serviceId: 'prenatal-b2c',
      status,
      date: '2025-03-03',
      time: '10:00',
      timezone: 'Asia/Tokyo',
      counselorId: 'c-sato',
      patientRole: 10,
      payment: { status: 'paid' },
      cancellation: status === 'cancelled' ? { reason: 'Counselor ill', at: '2025-03-02T01:00:00Z', by: 'clinic' } : null,
      intake: {
        contactInfo: person.contactInfo,
        familyMembers: [
          { side: 0, relationship: 4, disorders: ['Q90'] },
          { side: 1, relationship: 5, disorders: [] },
          { relationship: 2, disorders: ['Q36'] }, // the couple's daughter: no side
        ],
        currentPregnancy: { isPregnant: 1 },
      },
    },
    version: 3,
    contact: person.contact,
  });
}

beforeEach(() => {
  status = 'confirmed';
  person = inJapan;
  server = fakeServer({
    '/functions/staff-appointment-read': () => appointmentReply(),
    '/functions/clinic-read': () =>
      reply({ id: 'demo-clinic', timezone: 'Asia/Tokyo', counselors: [{ id: 'c-sato', name: { ja: '佐藤', en: 'Sato' } }] }),
    '/functions/service-read': () => reply({ id: 'prenatal-b2c', category: 'prenatal', name: { ja: '出生前', en: 'Prenatal counseling' } }),
    '/functions/appointment-updateStatus': () => {
      status = 'completed';
      return reply({ status });
    },
  });
});

afterEach(() => {
  view?.unmount();
  view = undefined;
});

describe('/staff/appointments/:id', () => {
  it('shows a person abroad readably: the phone spaced, the country named, the fields as asked', async () => {
    person = {
      contactInfo: { lastName: 'Carter', firstName: 'Emily', country: 'US', phone: '+14155550134', address: '500 Market St' },
      contact: { email: 'emily@example.com', intakeEmail: null, name: 'Carter Emily', lastName: 'Carter', firstName: 'Emily', phone: '+14155550134' },
    };
    view = renderApp('/staff/appointments/a-1', { user: admin });
    await screen.findByRole('heading', { level: 2, name: 'Booking' });
    const details = screen.getByRole('region', { name: 'Booking' });
    expect(within(details).getByText('+1 415 555 0134')).toBeTruthy();
    const contact = within(screen.getByRole('region', { name: 'Answers to the questionnaire' })).getByRole('region', {
      name: 'Contact information',
    });
    expect(within(contact).getByText('United States')).toBeTruthy();
    expect(within(contact).getByText('Last name')).toBeTruthy(); // not "Last name (katakana)"
    expect(within(contact).getByText('+1 415 555 0134')).toBeTruthy();
    expect(within(contact).getByText('500 Market St')).toBeTruthy();
  });

  it('shows the booking, the answers in words and the pedigree', async () => {
    view = renderApp('/staff/appointments/a-1', { user: admin });
    await screen.findByRole('heading', { level: 2, name: 'Booking' });
    expect(server.calls('staff-appointment-read')).toEqual([{ appointmentId: 'a-1' }]);
    const details = screen.getByRole('region', { name: 'Booking' });
    expect(within(details).getByText('ヤマダ ハナコ')).toBeTruthy();
    expect(within(details).getByText('Prenatal counseling')).toBeTruthy();
    expect(within(details).getByText('Sato')).toBeTruthy();
    expect(within(details).getByText('Confirmed')).toBeTruthy();
    expect(within(details).getByText('paid')).toBeTruthy();
    expect(within(details).getByText(/Monday, March 3, 2025 10:00/)).toBeTruthy();

    const answers = screen.getByRole('region', { name: 'Answers to the questionnaire' });
    const contact = within(answers).getByRole('region', { name: 'Contact information' });
    expect(within(contact).getByText('Japan')).toBeTruthy(); // the country's label, not "JP"
    expect(within(contact).getAllByText('Not answered').length).toBeGreaterThan(0);
    expect(within(answers).queryByRole('link', { name: /Edit/ })).toBeNull();
    // "Who is it?" in the words of its one choice; staff see the conditions' codes.
    const family = within(within(answers).getByRole('region', { name: 'Family history' }));
    expect(family.getByText("The woman's mother")).toBeTruthy();
    expect(family.getByText('Down syndrome (Q90)')).toBeTruthy();
    expect(family.getByText('Daughter')).toBeTruthy();
    expect(family.getByText('Cleft lip (Q36)')).toBeTruthy();

    const pedigree = screen.getByRole('region', { name: 'Family history (pedigree)' });
    expect(within(pedigree).getByRole('img', { name: /Mother \(Woman's side\), affected: Down syndrome/ })).toBeTruthy();
    expect(within(pedigree).getByRole('img', { name: /Woman, the person counseled/ })).toBeTruthy();
    expect(within(pedigree).getByRole('img', { name: /Older brother \(Partner's side\)$/ })).toBeTruthy();
    expect(within(pedigree).getByRole('img', { name: /Current pregnancy/ })).toBeTruthy();
    expect(within(pedigree).getByRole('img', { name: /^III-1 Daughter, affected: Cleft lip \(Q36\)$/ })).toBeTruthy();
  });

  it('offers the actions the status allows and reloads after one', async () => {
    const user = userEvent.setup();
    view = renderApp('/staff/appointments/a-1', { user: admin });
    const done = await screen.findByRole('button', { name: 'Mark as completed' });
    expect(screen.getByRole('button', { name: 'Mark as no-show' })).toBeTruthy();
    expect(screen.getByRole('button', { name: "Send the counselor's notification again" })).toBeTruthy();
    await user.click(done);
    await screen.findByText('The appointment is marked as completed.');
    expect(server.calls('appointment-updateStatus')).toEqual([{ appointmentId: 'a-1', status: 'completed' }]);
    await waitFor(() => {
      expect(server.calls('staff-appointment-read')).toHaveLength(2);
    });
    await screen.findByText('No action is possible for an appointment with this status.');
    expect(screen.queryByRole('button', { name: 'Mark as completed' })).toBeNull();
  });

  it('cancels for the clinic only with a reason, and says a refusal in words', async () => {
    const user = userEvent.setup();
    server.on('/functions/appointment-cancel', () => refuse('ABORTED', 409, 'no', { status: 'completed' }));
    view = renderApp('/staff/appointments/a-1', { user: admin });
    await user.click(await screen.findByRole('button', { name: 'Cancel for the clinic' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this appointment for the clinic?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the appointment' }));
    expect(await within(dialog).findByText('Enter a reason.')).toBeTruthy();
    expect(server.calls('appointment-cancel')).toEqual([]);
    await user.type(within(dialog).getByLabelText('Reason (sent to the person)'), ' Counselor ill ');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the appointment' }));
    expect(await within(dialog).findByText(/changed in the meantime \(it is now: Completed\)/)).toBeTruthy();
    expect(server.calls('appointment-cancel')).toEqual([{ appointmentId: 'a-1', reason: 'Counselor ill', byClinic: true }]);
  });

  it('says the page is refused, in the staff member language', async () => {
    server.on('/functions/staff-appointment-read', () => refuse('PERMISSION_DENIED', 403, 'no'));
    view = renderApp('/staff/appointments/a-1', { user: admin, locale: 'ja' });
    expect(await screen.findByText(/予約を表示できませんでした。/)).toBeTruthy();
  });
});
