import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeServer, refuse, reply, type FakeServer } from '../test/fakeServer';
import { renderApp } from '../test/renderApp';
import { admin, counselorSato } from '../test/staff';
import { updateOf, formOf, parseService, type StaffService } from './services';

let view: ReturnType<typeof renderApp> | undefined;
let server: FakeServer;

function service(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'prenatal-b2c',
    category: 'prenatal',
    name: { ja: '出生前検査の遺伝カウンセリング', en: 'Prenatal testing counseling' },
    price: { amount: 16500, currency: 'JPY' },
    sessionMinutes: 60,
    consentVersion: '2026-11',
    bufferMinutes: 15,
    minNoticeHours: 24,
    cancellationPolicy: { freeCancelHours: 48, lateRefundPercent: 50 },
    horizonDays: 60,
    gestationWeeks: { min: 10, max: 22 },
    active: true,
    version: 3,
    ...fields,
  };
}

const pgt = service({ id: 'pgt-post', category: 'pgt', name: { ja: 'PGT結果', en: 'PGT results' }, price: null, gestationWeeks: null, active: false, version: 1 });

beforeEach(() => {
  server = fakeServer({ '/functions/services-read': () => reply({ services: [service(), pgt] }) });
});

afterEach(() => {
  view?.unmount();
  view = undefined;
});

async function openEditor(name: string, edit = 'Edit') {
  const user = userEvent.setup();
  const card = (await screen.findByRole('heading', { level: 2, name })).closest('li');
  if (card === null) throw new Error('no card');
  await user.click(within(card).getByRole('button', { name: edit }));
  return { user, card };
}

describe('/staff/services', () => {
  it('lists every service, offered or not, with its price', async () => {
    view = renderApp('/staff/services', { user: admin });
    await screen.findByRole('heading', { level: 1, name: 'Services and prices' });
    const prenatal = (await screen.findByRole('heading', { level: 2, name: 'Prenatal testing counseling' })).closest('li');
    expect(prenatal?.textContent).toContain('Offered');
    expect(prenatal?.textContent).toContain('¥16,500');
    const other = screen.getByRole('heading', { level: 2, name: 'PGT results' }).closest('li');
    expect(other?.textContent).toContain('Not offered');
    expect(other?.textContent).toContain('No payment');
    expect(server.calls('services-read')).toEqual([{ clinicId: 'demo-clinic' }]);
  });

  it('saves a new price against the version read, and shows it', async () => {
    server.on('/functions/service-update', () => reply(service({ price: { amount: 22000, currency: 'JPY' }, version: 4 })));
    view = renderApp('/staff/services', { user: admin });
    const { user, card } = await openEditor('Prenatal testing counseling');
    const amount = within(card).getByRole('textbox', { name: 'Amount' });
    await user.clear(amount);
    await user.type(amount, '22000');
    await user.click(within(card).getByRole('button', { name: 'Save changes' }));
    expect(await within(card).findByText('Saved. New bookings follow these settings now.')).toBeTruthy();
    const [sent] = server.calls('service-update') as Record<string, unknown>[];
    expect(sent).toMatchObject({ clinicId: 'demo-clinic', serviceId: 'prenatal-b2c', version: 3, price: { amount: 22000, currency: 'JPY' } });
    await waitFor(() => {
      expect(card.textContent).toContain('¥22,000');
    });
  });

  it('shows the server refusal at the field it names, in Japanese', async () => {
    server.on('/functions/service-update', () =>
      refuse('INVALID_ARGUMENT', 400, 'sessionMinutes must be a multiple of 5 minutes.', { fields: { sessionMinutes: 'sessionMinutes must be a multiple of 5 minutes.' } }),
    );
    view = renderApp('/staff/services', { user: admin, locale: 'ja' });
    const { user, card } = await openEditor('出生前検査の遺伝カウンセリング', '編集');
    const minutes = within(card).getByRole('textbox', { name: '面談の長さ' });
    await user.clear(minutes);
    await user.type(minutes, '62');
    await user.click(within(card).getByRole('button', { name: '変更を保存' }));
    expect(await within(card).findByText('15〜480分の範囲で、5分単位で入力してください。')).toBeTruthy();
    expect(minutes.getAttribute('aria-invalid')).toBe('true');
  });

  it('answers a stale edit with the version someone else saved', async () => {
    const theirs = service({ bufferMinutes: 30, version: 4 });
    server.on('/functions/service-update', () => refuse('ABORTED', 409, 'Someone else changed this service meanwhile.', { version: 4, current: theirs }));
    view = renderApp('/staff/services', { user: admin });
    const { user, card } = await openEditor('Prenatal testing counseling');
    await user.click(within(card).getByRole('button', { name: 'Save changes' }));
    expect(await within(card).findByText(/Someone else changed this service meanwhile/)).toBeTruthy();
    await waitFor(() => {
      expect(within(card).getByRole<HTMLInputElement>('textbox', { name: 'Buffer after each session' }).value).toBe('30');
    });
  });

  it('tells a counselor the page is for administrators', async () => {
    view = renderApp('/staff/services', { user: counselorSato });
    expect(await screen.findByText('This page is for clinic administrators.')).toBeTruthy();
    expect(server.calls('services-read')).toEqual([]);
  });
});

describe('service-update input from the form', () => {
  const parsed = parseService(service());
  if (parsed === null) throw new Error('the sample service does not parse');
  const read: StaffService = parsed;

  it('turns an amount in the currency units into its smallest unit', () => {
    const form = { ...formOf(read), amount: '10.5', currency: 'usd' };
    expect(updateOf('demo-clinic', read, form)).toMatchObject({ input: { price: { amount: 1050, currency: 'USD' } } });
    expect(updateOf('demo-clinic', read, { ...form, amount: '10.505' })).toEqual({ unreadable: ['amount'] });
    expect(updateOf('demo-clinic', read, { ...formOf(read), amount: '１６５００' })).toMatchObject({ input: { price: { amount: 16500, currency: 'JPY' } } });
  });

  it('sends null for a free service and for no pregnancy window', () => {
    const form = { ...formOf(read), paid: false, pregnancy: false };
    expect(updateOf('demo-clinic', read, form)).toMatchObject({ input: { price: null, gestation: null } });
  });
});
