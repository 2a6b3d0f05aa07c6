import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeServer, reply } from '../test/fakeServer';
import { renderApp } from '../test/renderApp';
import { admin, auditDetails, auditEntry, pushClinicDocument, resetClinicDocuments } from '../test/staff';
import { auditPath } from './audit';

let view: ReturnType<typeof renderApp> | undefined;

beforeEach(() => {
  resetClinicDocuments();
  const entries = [
    auditEntry(4, 'document.retire', { docId: 'brochure', locale: 'en', size: 10, contentType: 'application/pdf', generation: 3 }),
    auditEntry(3, 'document.upload', { docId: 'consent-form', locale: 'ja', size: 10, contentType: 'application/pdf', generation: 2 }),
    auditEntry(2, 'holidays.update', { version: { from: 1, to: 2 }, added: ['2026-01-01', '2026-01-12'], removed: [], renamed: 0 }),
    auditEntry(1, 'schedule.update', { counselorId: 'c-sato', version: { from: 3, to: 4 }, weekly: { added: 2, removed: 1 }, exceptions: { added: 0, removed: 1 } }),
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

describe('clinic administration entries in the audit log', () => {
  it('say what changed, in English', async () => {
    view = renderApp('/staff/audit', { user: admin });
    await pushClinicDocument(auditPath('demo-clinic'), { latestId: 4, latestAt: '2025-03-03T00:05:00Z' });
    await screen.findByRole('table');
    expect(auditDetails()).toEqual([
      'brochure (en), version 3',
      'consent-form (ja), version 2',
      'Added: 2026-01-01, 2026-01-12; removed: —',
      'Counselor c-sato: weekly hours +2 −1; days off and extra hours +0 −1',
    ]);
  });

  it('and in Japanese', async () => {
    view = renderApp('/staff/audit', { user: admin, locale: 'ja' });
    await pushClinicDocument(auditPath('demo-clinic'), { latestId: 4, latestAt: '2025-03-03T00:05:00Z' });
    await screen.findByRole('table');
    expect(auditDetails()).toEqual([
      'brochure（en）第3版',
      'consent-form（ja）第2版',
      '追加：2026-01-01、2026-01-12／削除：—',
      'カウンセラー c-sato：毎週の受付時間 追加2件・削除1件／休み・臨時の受付時間 追加0件・削除1件',
    ]);
  });
});
