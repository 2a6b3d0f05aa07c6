import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeServer, reply } from '../test/fakeServer';
import { renderApp } from '../test/renderApp';
import { admin, pushClinicDocument, resetClinicDocuments } from '../test/staff';
import { auditPath } from './audit';

let view: ReturnType<typeof renderApp> | undefined;

function entry(id: number, action: string, detail: Record<string, unknown>): Record<string, unknown> {
  return { id, at: '2026-11-27T00:05:00Z', uid: 's1', email: 'staff@demo-clinic.example', role: 'clinic_admin', clinicId: 'demo-clinic', appointmentId: null, action, detail, clientAddress: null };
}

beforeEach(() => {
  resetClinicDocuments();
  const entries = [
    entry(3, 'service.update', { serviceId: 'prenatal-b2c', changes: { price: { before: null, after: null }, active: { before: true, after: false } } }),
    entry(2, 'providerCode.update', { code: 'AB12', before: { name: 'A', active: true }, after: { name: '山田クリニック', active: false } }),
    entry(1, 'providerCode.update', { code: 'AB12', before: null, after: { name: 'A', active: true } }),
  ];
  fakeServer({
    '/functions/clinic-read': () => reply({ id: 'demo-clinic', timezone: 'Asia/Tokyo' }),
    '/functions/staff-audit-read': () => reply({ entries, more: false }),
  });
});

afterEach(() => {
  view?.unmount();
  view = undefined;
});

describe('the audit log words the changes of services and provider codes', () => {
  it('names the settings changed and the code with its state', async () => {
    view = renderApp('/staff/audit', { user: admin });
    await pushClinicDocument(auditPath('demo-clinic'), { latestId: 3, latestAt: null });
    const table = await screen.findByRole('table');
    const details = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[4]?.textContent);
    expect(details).toEqual(['prenatal-b2c: price, offered', 'AB12: 山田クリニック, Not accepted', 'AB12 added: A']);
  });
});
