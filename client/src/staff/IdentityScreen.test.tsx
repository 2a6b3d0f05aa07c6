import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contract } from '../contract';
import en from '../locales/en/staff.json';
import ja from '../locales/ja/staff.json';
import { fakeServer, refuse, reply, type FakeServer } from '../test/fakeServer';
import { renderApp } from '../test/renderApp';
import { admin, counselorSato } from '../test/staff';

let view: ReturnType<typeof renderApp> | undefined;
let server: FakeServer;

const REDIRECT = 'https://book.example/auth/oidc/callback';
const NONE = { redirectUri: REDIRECT, version: 0, source: null, provider: null };

function workspace(fields: Record<string, unknown> = {}, version = 1): Record<string, unknown> {
  return {
    redirectUri: REDIRECT,
    version,
    source: 'workspace',
    provider: { name: 'Microsoft', issuer: 'https://login.example/tenant/v2.0', clientId: 'client-1', mfaAcr: [], enabled: true, secretSet: true, updated: '2026-11-28T00:00:00Z', ...fields },
  };
}

beforeEach(() => {
  server = fakeServer({ '/functions/identityProvider-read': () => reply(NONE) });
});

afterEach(() => {
  view?.unmount();
  view = undefined;
});

const field = (name: string) => screen.getByLabelText<HTMLInputElement>(name);

describe('/staff/identity', () => {
  it('shows the redirect URI to register and copies it', async () => {
    const user = userEvent.setup();
    view = renderApp('/staff/identity', { user: admin });
    await screen.findByRole('heading', { level: 1, name: 'Sign-in service' });
    expect((await screen.findByRole<HTMLInputElement>('textbox', { name: 'Redirect URI' })).value).toBe(REDIRECT);
    await user.click(screen.getByRole('button', { name: 'Copy the redirect URI' }));
    expect(await screen.findByText('Copied.')).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe(REDIRECT);
    expect(screen.getByText('Not set: staff sign in by e-mail link')).toBeTruthy();
    expect(server.calls('identityProvider-read')).toEqual([{ clinicId: 'demo-clinic' }]);
  });

  it('sets a provider: the secret sent once, then never shown, and kept when left empty', async () => {
    let saved = workspace();
    server.on('/functions/identityProvider-update', (body) => {
      const data = (body as { data: Record<string, unknown> }).data;
      saved = workspace({ name: data.name, issuer: data.issuer, clientId: data.clientId, mfaAcr: data.mfaAcr }, Number(data.version) + 1);
      return reply(saved);
    });
    const user = userEvent.setup();
    view = renderApp('/staff/identity', { user: admin });
    await user.type(await screen.findByLabelText('Name on the sign-in button'), 'Microsoft');
    await user.type(field('Issuer'), 'https://login.example/tenant/v2.0');
    await user.type(field('Client ID'), 'client-1');
    await user.type(field('Client secret'), 's3cret~value');
    await user.type(screen.getByLabelText('acr values that mean several factors (optional)'), 'urn:a{Enter}  {Enter}urn:b');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(server.calls('identityProvider-update')).toEqual([
      { clinicId: 'demo-clinic', version: 0, name: 'Microsoft', issuer: 'https://login.example/tenant/v2.0', clientId: 'client-1', clientSecret: 's3cret~value', mfaAcr: ['urn:a', 'urn:b'], enabled: true },
    ]);
    await waitFor(() => {
      expect(field('Client secret').value).toBe('');
    });
    expect(screen.getByText(/A secret is stored \(never shown\)/)).toBeTruthy();
    expect(screen.getByText('On: staff sign in through this service')).toBeTruthy();
    // Turned off without typing the secret: it is left out (the stored one is kept).
    await user.click(screen.getByLabelText('On: the clinic\'s staff sign in through this service'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(server.calls('identityProvider-update')).toHaveLength(2);
    });
    const second = server.calls('identityProvider-update')[1] as Record<string, unknown>;
    expect(second.version).toBe(1);
    expect(second.enabled).toBe(false);
    expect('clientSecret' in second).toBe(false);
  });

  it('words the fields the server refused, in Japanese', async () => {
    server.on('/functions/identityProvider-update', () =>
      refuse('INVALID_ARGUMENT', 400, 'The provider answers with another issuer.', {
        fields: { issuer: 'The provider answers with another issuer.', clientId: 'x' },
        codes: { issuer: 'issuerMismatch', clientId: 'characters' },
      }),
    );
    const user = userEvent.setup();
    view = renderApp('/staff/identity', { user: admin, locale: 'ja' });
    await user.type(await screen.findByLabelText('ログインボタンに表示する名前'), 'Google');
    await user.type(field('発行者（Issuer）'), 'https://accounts.google.com/');
    await user.type(field('クライアントID'), 'a b');
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText(/このアドレスのサービスは別の発行者を示しています/)).toBeTruthy();
    expect(screen.getByText(/使用できない文字が含まれています/)).toBeTruthy();
    expect(field('発行者（Issuer）').getAttribute('aria-invalid')).toBe('true');
    expect(field('ログインボタンに表示する名前').getAttribute('aria-invalid')).toBe('false');
    expect(field('発行者（Issuer）').value).toBe('https://accounts.google.com/');
  });

  it('answers a stale edit with the current values', async () => {
    server.on('/functions/identityProvider-read', () => reply(workspace()));
    const theirs = workspace({ name: 'Entra ID', clientId: 'client-2' }, 2);
    server.on('/functions/identityProvider-update', () => refuse('ABORTED', 409, 'Someone else changed the sign-in service meanwhile.', { version: 2, current: theirs }));
    const user = userEvent.setup();
    view = renderApp('/staff/identity', { user: admin });
    const name = await screen.findByLabelText<HTMLInputElement>('Name on the sign-in button');
    await waitFor(() => {
      expect(name.value).toBe('Microsoft');
    });
    await user.clear(name);
    await user.type(name, 'Mine');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Someone else changed the sign-in service meanwhile/)).toBeTruthy();
    await waitFor(() => {
      expect(name.value).toBe('Entra ID');
    });
    expect(field('Client ID').value).toBe('client-2');
  });

  it('shows a provider set by the server setting read-only', async () => {
    server.on('/functions/identityProvider-read', () => reply({ ...workspace(), source: 'settings', version: 0 }));
    view = renderApp('/staff/identity', { user: admin });
    expect(await screen.findByRole('heading', { name: "Set by the server's setting" })).toBeTruthy();
    expect(screen.getByText('https://login.example/tenant/v2.0')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('tells a counselor the page is for administrators', async () => {
    view = renderApp('/staff/identity', { user: counselorSato });
    expect(await screen.findByText('This page is for clinic administrators.')).toBeTruthy();
    expect(server.calls('identityProvider-read')).toEqual([]);
  });
});

describe('the one lists of contract.json', () => {
  it('words every problem of a refused field, in both languages', () => {
    for (const words of [en, ja]) {
      expect(Object.keys(words.identity.problem).filter((key) => key !== 'general').sort()).toEqual([...contract.identityProviderProblems].sort());
    }
  });

  it('words every audit action, in both languages', () => {
    for (const words of [en, ja]) {
      expect(Object.keys(words.audit.actions).sort()).toEqual([...contract.auditActions].sort());
    }
  });
});
