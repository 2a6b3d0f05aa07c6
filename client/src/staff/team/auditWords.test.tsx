import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeServer, reply } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';
import { admin, auditDetails, auditEntry, pushClinicDocument, resetClinicDocuments } from '../../test/staff';
import { auditPath } from '../audit';

let view: ReturnType<typeof renderApp> | undefined;

beforeEach(() => {
  resetClinicDocuments();
  const entries = [
    auditEntry(3, 'staff.update', { email: 'ito@demo-clinic.example', removed: { from: false, to: true } }),
    auditEntry(2, 'staff.update', {
      email: 'ito@demo-clinic.example',
      role: { from: 'counselor', to: 'clinic_admin' },
      counselorId: { from: 'c-ito', to: null },
    }),
    auditEntry(1, 'staff.invite', { email: 'ito@demo-clinic.example', role: 'counselor', counselorId: 'c-ito' }),
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

describe('staff account entries in the audit log', () => {
  it('say whom and what changed, in English', async () => {
    view = renderApp('/staff/audit', { user: admin });
    await pushClinicDocument(auditPath('demo-clinic'), { latestId: 3, latestAt: '2025-03-03T00:05:00Z' });
    await screen.findByRole('table');
    expect(auditDetails()).toEqual([
      'ito@demo-clinic.example: access removed',
      'ito@demo-clinic.example: role Counselor → Clinic administrator, counselor c-ito → none',
      'ito@demo-clinic.example as Counselor',
    ]);
  });

  it('and in Japanese', async () => {
    view = renderApp('/staff/audit', { user: admin, locale: 'ja' });
    await pushClinicDocument(auditPath('demo-clinic'), { latestId: 3, latestAt: '2025-03-03T00:05:00Z' });
    await screen.findByRole('table');
    expect(auditDetails()).toEqual([
      'ito@demo-clinic.example：アクセスを停止',
      'ito@demo-clinic.example：役割 カウンセラー → クリニック管理者、カウンセラー c-ito → なし',
      'ito@demo-clinic.example（カウンセラー）',
    ]);
  });
});
