import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeServer, refuse, reply, type FakeServer } from '../test/fakeServer';
import { renderApp } from '../test/renderApp';
import { admin, counselorSato } from '../test/staff';

let view: ReturnType<typeof renderApp> | undefined;
let server: FakeServer;
let staff: Record<string, unknown>[];

function member(staffId: number, email: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    staffId,
    email,
    role: 'clinic_admin',
    counselorId: null,
    invitedAt: '2025-03-03T00:05:00Z',
    secondFactor: true,
    removedAt: null,
    ...fields,
  };
}

const counselors = [
  { counselorId: 'c-sato', name: { ja: '佐藤 花子', en: 'Hanako Sato' }, staffId: 2 },
  { counselorId: 'c-ito', name: { ja: '伊藤 翔', en: 'Sho Ito' }, staffId: null },
];

beforeEach(() => {
  staff = [
    member(1, 'staff@demo-clinic.example'),
    member(2, 'sato@demo-clinic.example', { role: 'counselor', counselorId: 'c-sato', secondFactor: false }),
  ];
  server = fakeServer({
    '/functions/staff-list': () => reply({ staff, counselors }),
  });
});

afterEach(() => {
  view?.unmount();
  view = undefined;
});

const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
function row(index: number): HTMLElement {
  const found = rows()[index];
  if (found === undefined) throw new Error(`no row ${String(index)}`);
  return found;
}
const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

describe('/staff/team', () => {
  it('lists the members with role, counselor, authenticator, invitation and access', async () => {
    view = renderApp('/staff/team', { user: admin });
    await screen.findByRole('table', { name: '2 staff accounts' });
    expect(server.calls('staff-list')).toEqual([{ clinicId: 'demo-clinic' }]);
    expect(rows().map((row) => cells(row).slice(0, 5))).toEqual([
      ['staff@demo-clinic.example', 'Clinic administrator', 'Set up', 'Mar 3, 2025', 'Active'],
      ['sato@demo-clinic.example', 'CounselorHanako Sato', 'Not set up yet', 'Mar 3, 2025', 'Active'],
    ]);
  });

  it('invites a counselor: only counselors without an account are offered, and the list is read again', async () => {
    const user = userEvent.setup();
    server.on('/functions/staff-invite', () => {
      const added = member(3, 'ito@demo-clinic.example', { role: 'counselor', counselorId: 'c-ito', secondFactor: false });
      staff = [...staff, added];
      return reply({ member: added });
    });
    view = renderApp('/staff/team', { user: admin });
    await screen.findByRole('table');
    const form = screen.getByRole('form', { name: 'Invite a staff member' });
    await user.click(within(form).getByRole('button', { name: 'Send the invitation' }));
    expect(await within(form).findByText('Enter the e-mail address to invite.')).toBeTruthy();
    expect(within(form).getByText('Choose the counselor this member is.')).toBeTruthy();
    expect(server.calls('staff-invite')).toEqual([]);

    await user.type(within(form).getByLabelText('E-mail address'), ' ito@demo-clinic.example ');
    const select = within(form).getByRole('combobox', { name: 'Counselor' });
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['Choose a counselor', 'Sho Ito']);
    await user.selectOptions(select, 'c-ito');
    await user.click(within(form).getByRole('button', { name: 'Send the invitation' }));
    expect(await screen.findByText('The invitation was sent to ito@demo-clinic.example.')).toBeTruthy();
    expect(server.calls('staff-invite')).toEqual([
      { clinicId: 'demo-clinic', email: 'ito@demo-clinic.example', role: 'counselor', counselorId: 'c-ito' },
    ]);
    await screen.findByRole('table', { name: '3 staff accounts' });
  });

  it('shows a refused invitation beside the address, in Japanese', async () => {
    const user = userEvent.setup();
    server.on('/functions/staff-invite', () =>
      refuse('INVALID_ARGUMENT', 400, 'This address is a staff account of another clinic.', {
        fields: { email: 'This address is a staff account of another clinic.' },
        reason: 'otherClinic',
      }),
    );
    view = renderApp('/staff/team', { user: admin, locale: 'ja' });
    await screen.findByRole('table');
    await user.type(screen.getByLabelText('メールアドレス'), 'someone@other.example');
    await user.selectOptions(screen.getByRole('combobox', { name: '役割' }), 'clinic_admin');
    expect(screen.queryByRole('combobox', { name: 'カウンセラー' })).toBeNull();
    await user.click(screen.getByRole('button', { name: '招待メールを送る' }));
    expect(await screen.findByText('このメールアドレスは、別のクリニックのスタッフアカウントです。')).toBeTruthy();
    expect(server.calls('staff-invite')).toEqual([{ clinicId: 'demo-clinic', email: 'someone@other.example', role: 'clinic_admin' }]);
    expect(screen.getByLabelText('メールアドレス').getAttribute('aria-invalid')).toBe('true');
  });

  it('removes a member after a confirmation, and says why the last administrator cannot be', async () => {
    const user = userEvent.setup();
    server.on('/functions/staff-update', (body) => {
      const { staffId } = (body as { data: { staffId: number } }).data;
      if (staffId === 1) {
        const message = "The clinic's last administrator can be neither removed nor given another role.";
        return refuse('INVALID_ARGUMENT', 400, message, { fields: { removed: message }, reason: 'lastAdmin' });
      }
      staff = staff.map((m) => (m.staffId === staffId ? { ...m, removedAt: '2025-03-04T00:00:00Z' } : m));
      return reply({ member: staff[1] });
    });
    view = renderApp('/staff/team', { user: admin });
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Remove sato@demo-clinic.example' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove sato@demo-clinic.example?' });
    expect(within(dialog).getByText(/signed out everywhere at once/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Remove access' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).toBeNull();
    });
    expect(server.calls('staff-update')).toEqual([{ clinicId: 'demo-clinic', staffId: 2, removed: true }]);
    await waitFor(() => {
      expect(cells(row(1))[4]).toBe('Removed on Mar 4, 2025');
    });
    expect(screen.getByRole('button', { name: 'Restore sato@demo-clinic.example' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Remove staff@demo-clinic.example' }));
    const last = screen.getByRole('dialog');
    await user.click(within(last).getByRole('button', { name: 'Remove access' }));
    expect(await within(last).findByText(/last administrator can be neither removed nor given another role/)).toBeTruthy();
    await user.click(within(last).getByRole('button', { name: 'Go back' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('changes a role in a dialog, naming the counselor', async () => {
    const user = userEvent.setup();
    server.on('/functions/staff-update', () => reply({ member: staff[0] }));
    view = renderApp('/staff/team', { user: admin });
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Change role for staff@demo-clinic.example' }));
    const dialog = screen.getByRole('dialog', { name: 'Change the role of staff@demo-clinic.example' });
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Role' }), 'counselor');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Counselor' }), 'c-ito');
    await user.click(within(dialog).getByRole('button', { name: 'Change role' }));
    await waitFor(() => {
      expect(server.calls('staff-update')).toEqual([{ clinicId: 'demo-clinic', staffId: 1, role: 'counselor', counselorId: 'c-ito' }]);
    });
  });

  it('tells a counselor the page is for administrators, without asking the server', async () => {
    view = renderApp('/staff/team', { user: counselorSato });
    await screen.findByRole('heading', { level: 1, name: 'For clinic administrators' });
    expect(server.calls('staff-list')).toEqual([]);
  });
});
