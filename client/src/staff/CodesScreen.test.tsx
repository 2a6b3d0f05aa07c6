import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeServer, refuse, reply, type FakeServer } from '../test/fakeServer';
import { renderApp } from '../test/renderApp';
import { admin, counselorSato } from '../test/staff';

let view: ReturnType<typeof renderApp> | undefined;
let server: FakeServer;

const DEMO = { code: 'DEMO', name: 'デモ産婦人科クリニック', active: true, updated: '2026-11-27T00:00:00Z' };

beforeEach(() => {
  server = fakeServer({ '/functions/providerCodes-read': () => reply({ codes: [DEMO] }) });
});

afterEach(() => {
  view?.unmount();
  view = undefined;
});

const list = async () => screen.findByRole('list', { name: 'Codes of this clinic' });

describe('/staff/codes', () => {
  it('lists the codes with their institution and state', async () => {
    view = renderApp('/staff/codes', { user: admin });
    await screen.findByRole('heading', { level: 1, name: 'Provider codes' });
    const row = within(await list()).getByRole('listitem');
    expect(row.textContent).toContain('DEMO');
    expect(row.textContent).toContain('Active');
    expect(within(row).getByRole<HTMLInputElement>('textbox', { name: /Institution.*DEMO/ }).value).toBe('デモ産婦人科クリニック');
  });

  it('adds a code, and shows the refusal of a malformed one at its field', async () => {
    server.on('/functions/providerCode-update', (body) => {
      const data = (body as { data: Record<string, unknown> }).data;
      if (data.code === 'AB1') return refuse('INVALID_ARGUMENT', 400, 'Please check the code', { fields: { code: 'Please check the code' } });
      return reply({ ...data, updated: '2026-11-27T01:00:00Z' });
    });
    const user = userEvent.setup();
    view = renderApp('/staff/codes', { user: admin });
    await list();
    await user.type(screen.getByRole('textbox', { name: 'Code (4 letters or digits)' }), 'AB1');
    await user.type(screen.getByRole('textbox', { name: 'Institution' }), '山田クリニック');
    await user.click(screen.getByRole('button', { name: 'Add a code' }));
    expect(await screen.findByText('Enter exactly 4 half-width letters or digits.')).toBeTruthy();
    const code = screen.getByRole('textbox', { name: 'Code (4 letters or digits)' });
    await user.clear(code);
    await user.type(code, 'ab12');
    await user.click(screen.getByRole('button', { name: 'Add a code' }));
    await waitFor(() => {
      expect(within(screen.getByRole('list', { name: 'Codes of this clinic' })).getAllByRole('listitem')).toHaveLength(2);
    });
    expect(server.calls('providerCode-update').at(-1)).toEqual({ clinicId: 'demo-clinic', code: 'ab12', name: '山田クリニック', active: true });
  });

  it('stops accepting a code, in Japanese', async () => {
    server.on('/functions/providerCode-update', (body) => reply({ ...(body as { data: Record<string, unknown> }).data, updated: '2026-11-27T01:00:00Z' }));
    const user = userEvent.setup();
    view = renderApp('/staff/codes', { user: admin, locale: 'ja' });
    const codes = await screen.findByRole('list', { name: 'このクリニックのコード' });
    await user.click(within(codes).getByRole('button', { name: '受付を停止' }));
    expect(await within(codes).findByText('受付停止')).toBeTruthy();
    expect(server.calls('providerCode-update')).toEqual([{ clinicId: 'demo-clinic', code: 'DEMO', name: 'デモ産婦人科クリニック', active: false }]);
  });

  it('tells a counselor the page is for administrators', async () => {
    view = renderApp('/staff/codes', { user: counselorSato });
    expect(await screen.findByText('This page is for clinic administrators.')).toBeTruthy();
    expect(server.calls('providerCodes-read')).toEqual([]);
  });
});
