import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../i18n/bundled';
import type { Locale } from '../i18n/locale';
import { CharacterCounter } from './CharacterCounter';

function counter(length: number, locale: Locale = 'en') {
  return (
    <I18nextProvider i18n={createI18n(locale)}>
      <CharacterCounter id="topics-count" length={length} max={2000} locale={locale} />
    </I18nextProvider>
  );
}

const live = () => document.querySelector('[aria-live="polite"]')?.textContent;

describe('the character counter of a long text', () => {
  it('shows the count from the start, with the limit grouped', () => {
    render(counter(0));
    expect(screen.getByText('0 / 2,000')).toBeTruthy();
    expect(document.getElementById('topics-count')?.textContent).toBe('Up to 2,000 characters; 0 so far.');
  });

  it('speaks only when the text comes near the limit, goes over it, or comes back', () => {
    const view = render(counter(10));
    view.rerender(counter(500));
    expect(live()).toBe(''); // typing far from the limit is silent
    view.rerender(counter(1850));
    expect(live()).toBe('150 characters left.');
    view.rerender(counter(1900));
    expect(live()).toBe('150 characters left.'); // not every keystroke
    view.rerender(counter(2023));
    expect(live()).toBe('23 characters over the limit of 2,000.');
    expect(screen.getByText('(23 over the limit)', { exact: false })).toBeTruthy();
    expect(document.querySelector('.char-counter')?.hasAttribute('data-over')).toBe(true);
    view.rerender(counter(1000));
    expect(live()).toBe('Back within the limit of 2,000 characters.');
    expect(document.querySelector('.char-counter')?.hasAttribute('data-over')).toBe(false);
  });

  it('speaks Japanese', () => {
    const view = render(counter(1990, 'ja'));
    view.rerender(counter(2001, 'ja'));
    expect(live()).toBe('2,000文字を1文字超えています。');
    expect(screen.getByText('(1文字オーバー)', { exact: false })).toBeTruthy();
  });
});
