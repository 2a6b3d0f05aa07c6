import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp } from '../test/renderApp';

let view: ReturnType<typeof renderApp> | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
});

const headings = () => screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);

describe('terms of service and privacy policy', () => {
  it.each([
    ['/terms', 'en', 'Terms of service', '1. The service'],
    ['/terms', 'ja', '利用規約', '1. 本サービスについて'],
    ['/privacy', 'en', 'Privacy policy', '4. Who sees your health and genetic information'],
    ['/privacy', 'ja', 'プライバシーポリシー', '4. 健康情報・遺伝情報を閲覧できる人'],
  ] as const)('%s in %s: titled, numbered sections, a way to contact us', async (path, locale, title, heading) => {
    view = renderApp(path, { locale });
    await screen.findByRole('heading', { level: 1, name: title });
    expect(headings()).toContain(heading);
    await waitFor(() => {
      expect(document.title.startsWith(title)).toBe(true);
    });
    const main = screen.getByRole('main');
    expect([...main.querySelectorAll('a')].some((a) => a.getAttribute('href') === '/contact')).toBe(true);
  });

  it('the privacy policy says who sees health data, how long answers are kept, and that analytics never get them', async () => {
    view = renderApp('/privacy');
    await screen.findByRole('heading', { level: 1, name: 'Privacy policy' });
    const text = screen.getByRole('main').textContent;
    expect(text).toContain('Only the staff of the clinic you book with');
    expect(text).toContain('Answers you have not submitted are deleted at the end of the day');
    expect(text).toContain('never sent to analytics');
  });

  it.each([
    ['en', 'System error', 'An unexpected error occurred. Our team is investigating.'],
    ['ja', 'システムエラー', '予期しないエラーが発生しました。現在、担当チームが調査しています。'],
  ] as const)('/error in %s', async (locale, title, message) => {
    view = renderApp('/error', { locale });
    await screen.findByRole('heading', { level: 1, name: title });
    expect(screen.getByRole('alert').textContent).toBe(message);
  });
});
