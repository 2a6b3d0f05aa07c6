/**
 * The audit log's words for each kind of administrative change, in English and in Japanese:
 * one table of cases, each a few entries as the server writes them and the detail column
 * an administrator reads for them.
 */
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeServer, reply } from '../test/fakeServer';
import { renderApp } from '../test/renderApp';
import { admin, auditDetails, auditEntry, pushClinicDocument, resetClinicDocuments } from '../test/staff';
import { auditPath } from './audit';

interface Case {
  entries: Record<string, unknown>[];
  en: string[];
  ja: string[];
}

const cases: Record<string, Case> = {
  'services and provider codes': {
    entries: [
      auditEntry(3, 'service.update', { serviceId: 'prenatal-b2c', changes: { price: { before: null, after: null }, active: { before: true, after: false } } }),
      auditEntry(2, 'providerCode.update', { code: 'AB12', before: { name: 'A', active: true }, after: { name: '山田クリニック', active: false } }),
      auditEntry(1, 'providerCode.update', { code: 'AB12', before: null, after: { name: 'A', active: true } }),
    ],
    en: ['prenatal-b2c: price, offered', 'AB12: 山田クリニック, Not accepted', 'AB12 added: A'],
    ja: ['prenatal-b2c：料金、受付', 'AB12：山田クリニック（受付停止）', 'AB12を追加：A'],
  },
  'documents, closed days and schedules': {
    entries: [
      auditEntry(4, 'document.retire', { docId: 'brochure', locale: 'en', size: 10, contentType: 'application/pdf', generation: 3 }),
      auditEntry(3, 'document.upload', { docId: 'consent-form', locale: 'ja', size: 10, contentType: 'application/pdf', generation: 2 }),
      auditEntry(2, 'holidays.update', { version: { from: 1, to: 2 }, added: ['2026-01-01', '2026-01-12'], removed: [], renamed: 0 }),
      auditEntry(1, 'schedule.update', { counselorId: 'c-sato', version: { from: 3, to: 4 }, weekly: { added: 2, removed: 1 }, exceptions: { added: 0, removed: 1 } }),
    ],
    en: [
      'brochure (en), version 3',
      'consent-form (ja), version 2',
      'Added: 2026-01-01, 2026-01-12; removed: —',
      'Counselor c-sato: weekly hours +2 −1; days off and extra hours +0 −1',
    ],
    ja: [
      'brochure（en）第3版',
      'consent-form（ja）第2版',
      '追加：2026-01-01、2026-01-12／削除：—',
      'カウンセラー c-sato：毎週の受付時間 追加2件・削除1件／休み・臨時の受付時間 追加0件・削除1件',
    ],
  },
  'staff accounts': {
    entries: [
      auditEntry(3, 'staff.update', { email: 'ito@demo-clinic.example', removed: { from: false, to: true } }),
      auditEntry(2, 'staff.update', {
        email: 'ito@demo-clinic.example',
        role: { from: 'counselor', to: 'clinic_admin' },
        counselorId: { from: 'c-ito', to: null },
      }),
      auditEntry(1, 'staff.invite', { email: 'ito@demo-clinic.example', role: 'counselor', counselorId: 'c-ito' }),
    ],
    en: [
      'ito@demo-clinic.example: access removed',
      'ito@demo-clinic.example: role Counselor → Clinic administrator, counselor c-ito → none',
      'ito@demo-clinic.example as Counselor',
    ],
    ja: [
      'ito@demo-clinic.example：アクセスを停止',
      'ito@demo-clinic.example：役割 カウンセラー → クリニック管理者、カウンセラー c-ito → なし',
      'ito@demo-clinic.example（カウンセラー）',
    ],
  },
  "the clinic's sign-in service": {
    entries: [
      auditEntry(3, 'identityProvider.update', { changes: { enabled: { before: true, after: false } } }),
      auditEntry(2, 'identityProvider.update', { changes: { name: { before: 'A', after: 'B' } }, secret: 'replaced' }),
      auditEntry(1, 'identityProvider.update', {
        changes: { name: { before: null, after: 'A' }, issuer: { before: null, after: 'https://idp.example' }, clientId: { before: null, after: 'c' }, mfaAcr: { before: null, after: [] }, enabled: { before: null, after: true } },
        secret: 'set',
      }),
    ],
    en: ['turned off', 'button name, secret replaced', 'turned on, button name, issuer, client ID, acr values, secret set'],
    ja: ['無効化', 'ボタンの名前、シークレットを置き換え', '有効化、ボタンの名前、発行者、クライアントID、acr の値、シークレットを設定'],
  },
};

let view: ReturnType<typeof renderApp> | undefined;

afterEach(() => {
  view?.unmount();
  view = undefined;
});

/** The audit screen over `entries` in `locale`: the detail column, newest first. */
async function detailsShown(entries: Record<string, unknown>[], locale: 'en' | 'ja'): Promise<(string | null | undefined)[]> {
  resetClinicDocuments();
  fakeServer({
    '/functions/clinic-read': () => reply({ id: 'demo-clinic', timezone: 'Asia/Tokyo' }),
    '/functions/staff-audit-read': () => reply({ entries, more: false }),
  });
  view = renderApp('/staff/audit', { user: admin, locale });
  await pushClinicDocument(auditPath('demo-clinic'), { latestId: entries.length, latestAt: '2025-03-03T00:05:00Z' });
  await screen.findByRole('table');
  return auditDetails();
}

describe.each(Object.entries(cases))('the audit log words changes of %s', (_name, { entries, en, ja }) => {
  it('in English', async () => {
    expect(await detailsShown(entries, 'en')).toEqual(en);
  });

  it('and in Japanese', async () => {
    expect(await detailsShown(entries, 'ja')).toEqual(ja);
  });
});
