import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, refuse, reply, type FakeServer } from '../test/fakeServer';
import { renderApp } from '../test/renderApp';
import { admin, counselorSato } from '../test/staff';
import { fileProblem, refusalOf, titleProblem } from './documents';
import { FunctionsError } from '../realtime';

let view: ReturnType<typeof renderApp> | undefined;
let server: FakeServer;
let documents: Record<string, unknown>[];

function doc(docId: string, locale: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    docId,
    locale,
    title: null,
    name: `${docId}.txt`,
    contentType: 'text/plain; charset=utf-8',
    size: 2_048,
    updated: '2026-11-20T03:00:00Z',
    generation: 1,
    retiredAt: null,
    ...fields,
  };
}

/** Stands in for XMLHttpRequest (the upload, for its progress): the test answers it. */
class FakeUpload {
  static last: FakeUpload | null = null;
  static count = 0;
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  withCredentials = false;
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeUpload.last = this;
    FakeUpload.count += 1;
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

beforeEach(() => {
  FakeUpload.last = null;
  FakeUpload.count = 0;
  vi.stubGlobal('XMLHttpRequest', FakeUpload);
  documents = [
    doc('consent-form', 'ja', { title: '同意書', name: '同意書.pdf', contentType: 'application/pdf', generation: 3 }),
    doc('brochure', 'en', { retiredAt: '2026-11-21T00:00:00Z' }),
  ];
  server = fakeServer({ '/functions/documents-read': () => reply({ documents }) });
});

afterEach(() => {
  view?.unmount();
  view = undefined;
});

const row = (key: string) => {
  const found = document.querySelector<HTMLElement>(`tr[data-doc="${key}"]`);
  if (found === null) throw new Error(`no row ${key}`);
  return found;
};
const pdf = () => new File(['%PDF-1.4\n'], 'consent v2.pdf', { type: 'application/pdf' });

describe('/staff/documents', () => {
  it('lists each document and language with its facts and state', async () => {
    view = renderApp('/staff/documents', { user: admin });
    await screen.findByRole('table', { name: 'Documents and their languages' });
    expect(server.calls('documents-read')).toEqual([{ clinicId: 'demo-clinic' }]);
    const consent = within(row('consent-form/ja'));
    expect(consent.getByRole('link', { name: 'Open the download page of Consent form (Japanese)' }).getAttribute('href')).toBe(
      '/downloads/demo-clinic/consent-form/ja',
    );
    expect(row('consent-form/ja').textContent).toContain('同意書.pdf · Version 3');
    expect(consent.getByText('PDF document')).toBeTruthy();
    expect(consent.getByText('2 kB')).toBeTruthy();
    expect(consent.getByText('Published')).toBeTruthy();
    const brochure = within(row('brochure/en'));
    expect(brochure.getByText('Retired')).toBeTruthy();
    expect(brochure.queryByRole('link')).toBeNull(); // a retired document has no page to open
    expect(brochure.queryByRole('button', { name: /Retire/ })).toBeNull();
    expect(brochure.getByRole('button', { name: 'Replace Brochure (English)' })).toBeTruthy();
  });

  it('tells a counselor the page is for administrators, and reads nothing', async () => {
    view = renderApp('/staff/documents', { user: counselorSato });
    await screen.findByRole('heading', { level: 1, name: 'For clinic administrators' });
    expect(server.calls('documents-read')).toEqual([]);
  });

  it('names what is missing before sending anything', async () => {
    const user = userEvent.setup();
    view = renderApp('/staff/documents', { user: admin });
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(screen.getByLabelText('File').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Choose a file.')).toBeTruthy();
    expect(screen.getByText('Enter a title.')).toBeTruthy();
    expect(FakeUpload.count).toBe(0);
  });

  it('uploads with its progress, then announces it and reads the list again', async () => {
    const user = userEvent.setup();
    view = renderApp('/staff/documents', { user: admin });
    await screen.findByRole('table');
    await user.click(within(row('consent-form/ja')).getByRole('button', { name: 'Replace Consent form (Japanese)' }));
    const file = screen.getByLabelText('File');
    await waitFor(() => {
      expect(document.activeElement).toBe(file);
    });
    expect(screen.getByLabelText<HTMLInputElement>('Document ID').value).toBe('consent-form');
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('同意書');
    await user.clear(screen.getByLabelText('Title'));
    await user.type(screen.getByLabelText('Title'), '同意書 第4版');
    await user.upload(file, pdf());
    await user.click(screen.getByRole('button', { name: 'Upload' }));

    const sent = FakeUpload.last;
    if (sent === null) throw new Error('nothing sent');
    expect(sent.url).toBe('/staff/documents/demo-clinic/consent-form/ja');
    expect(sent.body?.get('title')).toBe('同意書 第4版');
    expect((sent.body?.get('file') as File).name).toBe('consent v2.pdf');
    sent.progress(50, 100);
    await screen.findByText('Uploading… 50%');
    expect(screen.getByRole('button', { name: 'Upload' }).hasAttribute('disabled')).toBe(true);
    documents = [doc('consent-form', 'ja', { title: '同意書 第4版', generation: 4 })];
    sent.answer(200, { data: documents[0] });
    await waitFor(() => {
      expect(screen.getByTestId('documents-announcer').textContent).toBe(
        'Uploaded "同意書 第4版" for Consent form (Japanese), version 4.',
      );
    });
    await waitFor(() => {
      expect(server.calls('documents-read')).toHaveLength(2);
    });
    expect(screen.queryByText(/Uploading/)).toBeNull();
  });

  it("shows the server's refusal beside the file, in Japanese", async () => {
    const user = userEvent.setup();
    view = renderApp('/staff/documents', { user: admin, locale: 'ja' });
    await screen.findByRole('table');
    await user.type(screen.getByLabelText('タイトル'), 'パンフレット');
    await user.upload(screen.getByLabelText('ファイル'), new File(['x'], 'photo.pdf', { type: 'application/pdf' }));
    await user.click(screen.getByRole('button', { name: 'アップロード' }));
    const message = 'The file\u2019s content does not match its type or name.';
    FakeUpload.last?.answer(400, {
      error: { status: 'INVALID_ARGUMENT', message, details: { fields: { file: message }, codes: { file: 'mismatch' } } },
    });
    const shown = await screen.findByText('ファイルの中身が種類やファイル名と一致しません（例: 画像に .pdf という名前が付いている）。');
    expect(screen.getByLabelText('ファイル').getAttribute('aria-describedby')).toContain(shown.id);
    expect(screen.getByLabelText('ファイル').getAttribute('aria-invalid')).toBe('true');
  });

  it('retires a document after a confirmation', async () => {
    const user = userEvent.setup();
    server.on('/staff/documents/demo-clinic/consent-form/ja/retire', () =>
      json({ data: doc('consent-form', 'ja', { retiredAt: '2026-11-27T00:00:00Z' }) }),
    );
    view = renderApp('/staff/documents', { user: admin });
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Retire Consent form (Japanese)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Retire this document?' });
    expect(dialog.textContent).toContain('Consent form (Japanese) will no longer be offered');
    await user.click(within(dialog).getByRole('button', { name: 'Keep it published' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.requests.filter((r) => r.url.endsWith('/retire'))).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Retire Consent form (Japanese)' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Retire the document' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).toBeNull();
    });
    expect(server.requests.filter((r) => r.url.endsWith('/retire')).map((r) => r.method)).toEqual(['POST']);
    expect(screen.getByTestId('documents-announcer').textContent).toBe('Consent form (Japanese) is retired.');
  });

  it('keeps the dialog open with the reason when the retirement is refused', async () => {
    const user = userEvent.setup();
    server.on('/staff/documents/demo-clinic/consent-form/ja/retire', () => refuse('PERMISSION_DENIED', 403, 'No.'));
    view = renderApp('/staff/documents', { user: admin });
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Retire Consent form (Japanese)' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Retire the document' }));
    expect((await within(dialog).findByRole('alert')).textContent).not.toBe('');
  });
});

describe('document checks', () => {
  it('knows a file that cannot be sent', () => {
    expect(fileProblem(null)).toBe('required');
    expect(fileProblem(new File([], 'a.pdf'))).toBe('empty');
    expect(fileProblem(new File(['x'], 'a.pdf'))).toBeNull();
    expect(fileProblem({ size: 21 * 1024 * 1024 } as File)).toBe('tooLarge');
    expect(titleProblem('  ')).toBe('required');
    expect(titleProblem('x'.repeat(121))).toBe('tooLong');
  });

  it("reads the field a refusal names, and why", () => {
    const refused = new FunctionsError('invalid-argument', 'x', { fields: { title: 'x' }, codes: { title: 'controlCharacters' } });
    expect(refusalOf(refused)).toEqual({ field: 'title', code: 'controlCharacters' });
    expect(refusalOf(new FunctionsError('invalid-argument', 'x', { fields: { docId: 'x' } }))).toEqual({ field: 'docId', code: 'invalid' });
    expect(refusalOf(new FunctionsError('permission-denied', 'x'))).toBeNull();
  });
});
