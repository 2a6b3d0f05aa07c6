import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeServer, json, refuse } from '../test/fakeServer';
import { renderApp } from '../test/renderApp';
import { fileUrl, formatSize, parseMetadata } from './Downloads';

let view: ReturnType<typeof renderApp> | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
});

const metadata = {
  bucket: 'genecounsel',
  generation: '1764547200000000',
  metageneration: '1',
  fullPath: 'clinics/demo-clinic/documents/consent-form/en/consent-form.txt',
  name: 'consent-form.txt',
  size: 2_560,
  timeCreated: '2026-11-01T00:00:00.000Z',
  updated: '2026-11-20T03:00:00.000Z',
  md5Hash: 'q1w2e3==',
  cacheControl: 'private, max-age=300',
  contentDisposition: "attachment; filename*=UTF-8''consent-form.txt",
  contentEncoding: 'identity',
  contentLanguage: 'en',
  contentType: 'text/plain; charset=utf-8',
  customMetadata: {},
};

describe('downloads', () => {
  it("shows the document's name, size, type and date with a download link (en)", async () => {
    const server = fakeServer({ '/files/demo-clinic/consent-form/en/metadata': () => json({ data: metadata }) });
    view = renderApp('/downloads/demo-clinic/consent-form/en');
    await screen.findByRole('heading', { level: 2, name: 'consent-form.txt' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Downloads');
    const facts = [...document.querySelectorAll('.file-facts > div')].map((row) => [
      row.querySelector('dt')?.textContent,
      row.querySelector('dd')?.textContent,
    ]);
    expect(facts).toEqual([
      ['Size', '2.5 kB'],
      ['Type', 'Text document'],
      ['Updated', 'November 20, 2026'],
    ]);
    const link = screen.getByRole('link', { name: 'Download consent-form.txt' });
    expect(link.getAttribute('href')).toBe('/files/demo-clinic/consent-form/en');
    expect(link.hasAttribute('download')).toBe(true);
    expect(server.requests.map((r) => r.url)).toContain('/files/demo-clinic/consent-form/en/metadata');
  });

  it('in Japanese', async () => {
    fakeServer({
      '/files/demo-clinic/brochure/ja/metadata': () => json({ data: { ...metadata, name: 'ご案内.txt', size: 300 } }),
    });
    view = renderApp('/downloads/demo-clinic/brochure/ja', { locale: 'ja' });
    await screen.findByRole('heading', { level: 2, name: 'ご案内.txt' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('ダウンロード');
    expect(screen.getByText('300 バイト')).toBeTruthy();
    expect(screen.getByText('2026/11/20')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'ご案内.txtをダウンロード' }).getAttribute('href')).toBe('/files/demo-clinic/brochure/ja');
  });

  it('a missing document shows the not-found page', async () => {
    fakeServer({ '/files/demo-clinic/nothing/en/metadata': () => refuse('NOT_FOUND', 404, 'No such file.') });
    view = renderApp('/downloads/demo-clinic/nothing/en');
    await screen.findByRole('heading', { level: 1, name: 'Page not found' });
    expect(screen.queryByRole('link', { name: /Download/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to the start page' })).toBeTruthy();
  });

  it('a retired document says plainly it is no longer available, with nothing to download', async () => {
    fakeServer({
      '/files/demo-clinic/brochure/ja/metadata': () => refuse('NOT_FOUND', 410, 'This document is no longer available.'),
    });
    view = renderApp('/downloads/demo-clinic/brochure/ja', { locale: 'ja' });
    const notice = await screen.findByText('この文書は現在提供していません。最新の資料はクリニックにお問い合わせください。');
    expect(notice.getAttribute('role')).toBe('status');
    expect(screen.queryByRole('link', { name: /ダウンロード/ })).toBeNull();
    expect(screen.queryByRole('heading', { level: 1, name: 'ページが見つかりません' })).toBeNull();
  });

  it('a title given by the clinic heads the document', async () => {
    fakeServer({
      '/files/demo-clinic/consent-form/en/metadata': () => json({ data: { ...metadata, customMetadata: { title: 'Consent form (2nd ed.)' } } }),
    });
    view = renderApp('/downloads/demo-clinic/consent-form/en');
    await screen.findByRole('heading', { level: 2, name: 'Consent form (2nd ed.)' });
    expect(screen.getByRole('link', { name: 'Download consent-form.txt' })).toBeTruthy();
  });

  it('another failure says so and offers to try again', async () => {
    let calls = 0;
    fakeServer({
      '/files/demo-clinic/brochure/en/metadata': () => {
        calls += 1;
        return calls === 1 ? refuse('INTERNAL', 500, 'An internal error occurred.') : json({ data: metadata });
      },
    });
    view = renderApp('/downloads/demo-clinic/brochure/en');
    expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong on our side. Please try again later.');
    screen.getByRole('button', { name: 'Try again' }).click();
    await screen.findByRole('heading', { level: 2, name: 'consent-form.txt' });
  });
});

describe('downloads helpers', () => {
  it('encodes each part of the file address', () => {
    expect(fileUrl('demo clinic', 'a/b', 'en')).toBe('/files/demo%20clinic/a%2Fb/en');
  });

  it('formats sizes in the locale', () => {
    expect(formatSize(0, 'en')).toBe('0 bytes');
    expect(formatSize(1_536, 'en')).toBe('1.5 kB');
    expect(formatSize(5 * 1024 ** 2, 'ja')).toBe('5 MB');
  });

  it('reads the metadata reply', () => {
    expect(parseMetadata({ data: metadata })).toEqual({
      name: 'consent-form.txt',
      title: null,
      size: 2_560,
      contentType: 'text/plain; charset=utf-8',
      contentLanguage: 'en',
      updated: '2026-11-20T03:00:00.000Z',
    });
    expect(parseMetadata({ data: { ...metadata, size: '12' } })?.size).toBe(12);
    expect(parseMetadata({ data: { ...metadata, customMetadata: { title: '同意書 第2版' } } })?.title).toBe('同意書 第2版');
    expect(parseMetadata({ error: {} })).toBeNull();
  });
});
