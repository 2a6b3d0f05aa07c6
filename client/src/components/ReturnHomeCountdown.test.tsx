import { act, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../i18n/bundled';
import type { Locale } from '../i18n/locale';
import { inMemoryRouter } from '../test/memoryRouter';
import { ReturnHomeCountdown } from './ReturnHomeCountdown';

function renderCountdown(seconds: number, { to, locale = 'en' }: { to?: string; locale?: Locale } = {}) {
  const { element, router } = inMemoryRouter(
    <Routes>
      <Route path="/" element={<h1>Start</h1>} />
      <Route path="/elsewhere" element={<h1>Elsewhere</h1>} />
      <Route path="/done" element={<ReturnHomeCountdown seconds={seconds} {...(to === undefined ? {} : { to })} />} />
    </Routes>,
    ['/done'],
  );
  render(<I18nextProvider i18n={createI18n(locale)}>{element}</I18nextProvider>);
  return router;
}

const advance = (ms: number) => {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
};

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('return-home countdown', () => {
  it('counts down each second and goes to the start page at zero', () => {
    const router = renderCountdown(3);
    expect(screen.getByRole('timer').textContent).toBe('Returning to the start page in 3 seconds.');
    advance(1_000);
    expect(screen.getByRole('timer').textContent).toBe('Returning to the start page in 2 seconds.');
    advance(1_000);
    expect(screen.getByRole('timer').textContent).toBe('Returning to the start page in 1 second.');
    expect(router.state.location.pathname).toBe('/done');
    advance(1_000);
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByRole('heading', { name: 'Start' })).toBeTruthy();
  });

  it('goes to `to`, and at once with the link (ja)', () => {
    const router = renderCountdown(10, { to: '/elsewhere', locale: 'ja' });
    expect(screen.getByRole('timer').textContent).toBe('10秒後にトップページに戻ります。');
    fireEvent.click(screen.getByRole('link', { name: '今すぐトップページに戻る' }));
    expect(router.state.location.pathname).toBe('/elsewhere');
  });

  it('"Stay on this page" stops the countdown and moves focus to the link', () => {
    const router = renderCountdown(5);
    advance(2_000);
    fireEvent.click(screen.getByRole('button', { name: 'Stay on this page' }));
    advance(60_000);
    expect(router.state.location.pathname).toBe('/done');
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.getByText('You are staying on this page.')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Go to the start page now' }));
  });
});
