import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeServer, refuse, reply, type FakeServer } from '../test/fakeServer';
import { renderApp } from '../test/renderApp';
import { admin, counselorSato, pushClinicDocument, resetClinicDocuments } from '../test/staff';
import { auditPath } from './audit';

let view: ReturnType<typeof renderApp> | undefined;
let server: FakeServer;
let entries: Record<string, unknown>[];
let more = false;

const AUDIT = auditPath('demo-clinic');

function entry(id: number, action: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    at: '2025-03-03T00:05:00Z', // 09:05 in Tokyo
    uid: 's1',
    email: 'staff@demo-clinic.example',
    role: 'clinic_admin',
    clinicId: 'demo-clinic',
    appointmentId: 'a-1',
    action,
    detail: null,
    clientAddress: '203.0.113.9',
    ...fields,
  };
}

beforeEach(() => {
  resetClinicDocuments();
  more = false;
  entries = [
    entry(3, 'appointment.status', { detail: { from: 'confirmed', to: 'no_show' } }),
    entry(2, 'audit.read', { appointmentId: null, detail: { appointmentId: null, from: '2025-03-01', to: null } }),
    entry(1, 'intake.read', { email: 'sato@demo-clinic.example', role: 'counselor', clientAddress: null }),
  ];
  server = fakeServer({
    '/functions/clinic-read': () => reply({ id: 'demo-clinic', timezone: 'Asia/Tokyo' }),
    '/functions/staff-audit-read': () => reply({ entries, more }),
  });
});

afterEach(() => {
  view?.unmount();
  view = undefined;
});

const rows = () => screen.getAllByRole('row').slice(1); // without the header row
function firstRow(): HTMLElement {
  const [row] = rows();
  if (row === undefined) throw new Error('no entry row');
  return row;
}
const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

describe('/staff/audit', () => {
  it('lists the entries in words once the live document is followed, times in the clinic zone', async () => {
    view = renderApp('/staff/audit', { user: admin });
    await screen.findByRole('heading', { level: 1, name: 'Audit log' });
    expect(screen.getByText('Loading the audit log…')).toBeTruthy();
    expect(server.calls('staff-audit-read')).toEqual([]); // not before the document is followed
    await pushClinicDocument(AUDIT, { latestId: 3, latestAt: '2025-03-03T00:05:00Z' });

    await screen.findByRole('table', { name: 'Audit entries, newest first' });
    expect(server.calls('staff-audit-read')).toEqual([{ clinicId: 'demo-clinic' }]);
    await waitFor(() => {
      expect(cells(firstRow())[0]).toBe('Mar 3, 2025, 09:05:00');
    });
    expect(rows().map(cells)).toEqual([
      ['Mar 3, 2025, 09:05:00', 'staff@demo-clinic.example' + 'Clinic administrator', 'Changed the status', 'a-1', 'Confirmed → No-show', '203.0.113.9'],
      ['Mar 3, 2025, 09:05:00', 'staff@demo-clinic.example' + 'Clinic administrator', 'Read the audit log', 'None', 'Filters: from 2025-03-01', '203.0.113.9'],
      ['Mar 3, 2025, 09:05:00', 'sato@demo-clinic.example' + 'Counselor', 'Read the intake', 'a-1', '', 'Unknown'],
    ]);
    expect(within(firstRow()).getByRole('link', { name: 'a-1' }).getAttribute('href')).toBe('/staff/appointments/a-1');
    expect(screen.getByText("Times are in the clinic's time zone: Japan Standard Time. New entries appear by themselves.")).toBeTruthy();
    expect(screen.queryByText(/Older entries were left out/)).toBeNull();
  });

  it('reads the list again when the live document names a newer entry, and announces it', async () => {
    view = renderApp('/staff/audit', { user: admin });
    await pushClinicDocument(AUDIT, { latestId: 3, latestAt: null });
    await screen.findByRole('table');
    entries = [entry(4, 'mail.resend', { detail: { to: 'counselor' } }), ...entries];
    await pushClinicDocument(AUDIT, { latestId: 4, latestAt: null });
    await waitFor(() => {
      expect(rows()).toHaveLength(4);
    });
    expect(server.calls('staff-audit-read')).toHaveLength(2);
    expect(cells(firstRow())[4]).toBe("The counselor's notification");
    expect(rows()[0]?.hasAttribute('data-new')).toBe(true);
    expect(rows()[1]?.hasAttribute('data-new')).toBe(false);
    expect(screen.getByTestId('audit-announcer').textContent).toBe('1 new audit entry.');
  });

  it('filters by appointment and days on the server, by action on the screen, and says when the page was cut', async () => {
    const user = userEvent.setup();
    more = true;
    view = renderApp('/staff/audit', { user: admin });
    await pushClinicDocument(AUDIT, { latestId: 3, latestAt: null });
    await screen.findByRole('table');
    expect(screen.getByText('Older entries were left out. Narrow the days or the appointment to see them.')).toBeTruthy();

    await user.type(screen.getByLabelText('Appointment ID'), 'bad id!');
    await user.click(screen.getByRole('button', { name: 'Show entries' }));
    expect((await screen.findByRole('alert')).textContent).toBe('An appointment ID has only letters, digits, - and _ (at most 64).');
    await user.clear(screen.getByLabelText('Appointment ID'));
    await user.type(screen.getByLabelText('Appointment ID'), ' a-1 ');
    await user.type(screen.getByLabelText('From (day)'), '2025-03-05');
    await user.type(screen.getByLabelText('To (day)'), '2025-03-01');
    await user.click(screen.getByRole('button', { name: 'Show entries' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The last day cannot be before the first.');
    expect(server.calls('staff-audit-read')).toHaveLength(1);

    await user.clear(screen.getByLabelText('To (day)'));
    await user.type(screen.getByLabelText('To (day)'), '2025-03-07');
    await user.selectOptions(screen.getByLabelText('Action'), 'intake.read');
    await user.click(screen.getByRole('button', { name: 'Show entries' }));
    await waitFor(() => {
      expect(server.calls('staff-audit-read')).toEqual([
        { clinicId: 'demo-clinic' },
        { clinicId: 'demo-clinic', appointmentId: 'a-1', from: '2025-03-05', to: '2025-03-07' },
      ]);
    });
    await waitFor(() => {
      expect(rows().map((row) => cells(row)[2])).toEqual(['Read the intake']);
    });
    expect(screen.getByText('1 entry shown')).toBeTruthy();
  });

  it("shows the server's refusal in words", async () => {
    server.on('/functions/staff-audit-read', () => refuse('PERMISSION_DENIED', 403, 'No.'));
    view = renderApp('/staff/audit', { user: admin });
    await pushClinicDocument(AUDIT, { latestId: null, latestAt: null });
    expect((await screen.findByRole('alert')).textContent).toBe('You do not have permission to do this.');
  });

  it('tells a counselor plainly that the page is for clinic administrators, and reads nothing', async () => {
    view = renderApp('/staff/audit', { user: counselorSato, locale: 'ja' });
    await screen.findByRole('heading', { level: 1, name: 'このページはクリニック管理者専用です' });
    expect(screen.getByRole('link', { name: '予約ボードに戻る' }).getAttribute('href')).toBe('/staff');
    expect(server.calls('staff-audit-read')).toEqual([]);
  });
});

describe('/staff: the link to the audit log', () => {
  it('is in the board header for a clinic administrator only', async () => {
    view = renderApp('/staff', { user: admin });
    await screen.findByRole('heading', { level: 1, name: 'Bookings board' });
    expect(screen.getByRole('link', { name: 'Audit log' }).getAttribute('href')).toBe('/staff/audit');
    view.unmount();
    view = renderApp('/staff', { user: counselorSato });
    await screen.findByRole('heading', { level: 1, name: 'Bookings board' });
    expect(screen.queryByRole('link', { name: 'Audit log' })).toBeNull();
  });
});

describe('/staff/audit: a moved appointment', () => {
  it('says the old and the new start in the clinic zone', async () => {
    entries = [entry(5, 'appointment.reschedule', { detail: { from: '2025-03-05T02:00:00Z', to: '2025-03-20T05:00:00Z', counselorFrom: 'c-sato', counselorTo: 'c-sato' } })];
    view = renderApp('/staff/audit', { user: admin });
    await pushClinicDocument(AUDIT, { latestId: 5, latestAt: null });
    await screen.findByRole('table');
    await waitFor(() => {
      expect(cells(firstRow()).slice(2, 5)).toEqual(['Moved the time', 'a-1', 'Mar 5, 2025, 11:00 → Mar 20, 2025, 14:00']);
    });
  });
});
