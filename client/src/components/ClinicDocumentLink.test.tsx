import { render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import { createI18n } from '../i18n/bundled';
import type { Locale } from '../i18n/locale';
import { useAppStore } from '../store';
import { fakeServer, json, refuse, type FakeServer } from '../test/fakeServer';
import { inMemoryRouter } from '../test/memoryRouter';
import { ClinicDocumentLink, type LinkedDocument } from './ClinicDocumentLink';

let server: FakeServer;
const metadata = { name: 'consent-form.txt', size: 10, contentType: 'text/plain', updated: '2026-11-20T03:00:00Z' };

beforeEach(() => {
  server = fakeServer({
    '/files/demo-clinic/consent-form/ja/metadata': () => json({ data: { ...metadata, name: '同意書.txt' } }),
    '/files/demo-clinic/consent-form/en/metadata': () => json({ data: metadata }),
    '/files/demo-clinic/brochure/en/metadata': () => refuse('NOT_FOUND', 410, 'This document is no longer available.'),
  });
});

function renderLink(document: LinkedDocument, locale: Locale, clinicId: string | null = 'demo-clinic') {
  useAppStore.getState().setLocale(locale);
  const { element } = inMemoryRouter(<ClinicDocumentLink clinicId={clinicId} document={document} />);
  render(<I18nextProvider i18n={createI18n(locale)}>{element}</I18nextProvider>);
}

describe('ClinicDocumentLink', () => {
  it("links the consent form's page in the person's language", async () => {
    renderLink('consent-form', 'ja');
    const link = await screen.findByRole('link', { name: '同意書をダウンロード（閲覧・印刷用）' });
    expect(link.getAttribute('href')).toBe('/downloads/demo-clinic/consent-form/ja');
  });

  it('in English too', async () => {
    renderLink('consent-form', 'en');
    const link = await screen.findByRole('link', { name: 'Download the consent form to read or print' });
    expect(link.getAttribute('href')).toBe('/downloads/demo-clinic/consent-form/en');
  });

  it('links nothing the clinic retired, nor without a clinic', async () => {
    renderLink('brochure', 'en');
    await waitFor(() => {
      expect(server.requests.map((r) => r.url)).toContain('/files/demo-clinic/brochure/en/metadata');
    });
    await new Promise((resolve) => setTimeout(resolve, 50)); // the answer has been read
    expect(screen.queryByRole('link')).toBeNull();
    renderLink('brochure', 'en', null);
    expect(screen.queryByRole('link')).toBeNull();
  });
});
