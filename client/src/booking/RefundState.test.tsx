import { render } from '@testing-library/react';
import { act } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n } from '../i18n/bundled';
import type { Locale } from '../i18n/locale';
import { useAppStore } from '../store';
import { parseCancelQuote, quoteWording, refundOfFeed, refundOfPayment, type RefundView } from './refund';
import { RefundLine, RefundQuote, RefundState } from './RefundState';

/** The sentence the cancel dialog shows for a reply of appointment-cancelQuote. */
function quoteText(reply: unknown, locale: Locale): string {
  const view = render(
    <I18nextProvider i18n={createI18n(locale)}>
      <RefundQuote wording={quoteWording(parseCancelQuote(reply))} locale={locale} />
    </I18nextProvider>,
  );
  const text = view.container.textContent;
  view.unmount();
  return text;
}

function stateText(node: React.ReactNode, locale: Locale): string {
  act(() => {
    useAppStore.setState({ locale });
  });
  const view = render(<I18nextProvider i18n={createI18n(locale)}>{node}</I18nextProvider>);
  const text = view.container.textContent;
  view.unmount();
  return text;
}

const FREE_UNTIL = '2026-12-08T01:00:00.000Z';

afterEach(() => {
  useAppStore.getState().reset();
});

describe('the refund quote of the cancel dialog', () => {
  it('says the full refund, the policy share, or none, in both languages', () => {
    const full = { refund: { amount: 16500, currency: 'JPY' }, freeUntil: FREE_UNTIL, share: 100 };
    const late = { refund: { amount: 8250, currency: 'JPY' }, freeUntil: FREE_UNTIL, share: 50 };
    const none = { refund: { amount: 0, currency: 'JPY' }, freeUntil: FREE_UNTIL, share: 0 };
    expect(quoteText(full, 'en')).toBe('You will be refunded ¥16,500.');
    expect(quoteText(late, 'en')).toBe('You will be refunded ¥8,250 (50% of the amount paid).');
    expect(quoteText(none, 'en')).toBe('This cancellation is not refunded.');
    expect(quoteText(full, 'ja')).toBe('16,500円が返金されます。');
    expect(quoteText(late, 'ja')).toBe('お支払い額の50%（8,250円）が返金されます。');
    expect(quoteText(none, 'ja')).toBe('今回のキャンセルは返金の対象外です。');
  });

  it('says nothing when nothing was paid, or the reply is not a quote', () => {
    expect(quoteText({ refund: null, freeUntil: null, share: 100 }, 'en')).toBe('');
    expect(quoteText({ refund: { amount: '8250', currency: 'JPY' }, share: 50 }, 'en')).toBe('');
    expect(quoteText(null, 'en')).toBe('');
  });
});

describe('the refund state of a cancelled booking', () => {
  it('reads the payment of the appointment document', () => {
    const payment = { status: 'refunded', amount: 16500, currency: 'jpy', refundAmount: 8250 };
    expect(refundOfPayment(payment)).toEqual({ state: 'refunded', price: { amount: 8250, currency: 'JPY' } });
    expect(stateText(<RefundState payment={payment} />, 'en')).toBe('Refunded ¥8,250');
    expect(stateText(<RefundState payment={payment} />, 'ja')).toBe('返金済み（8,250円）');
    expect(stateText(<RefundState payment={{ ...payment, status: 'refund_pending' }} />, 'en')).toBe('Refund of ¥8,250 pending');
    expect(stateText(<RefundState payment={{ status: 'refund_pending' }} />, 'en')).toBe('Refund pending');
    expect(stateText(<RefundState payment={{ status: 'not_refunded', refundAmount: 0, currency: 'jpy' }} />, 'en')).toBe(
      'No refund (cancellation policy)',
    );
    expect(stateText(<RefundState payment={{ status: 'paid', amount: 16500, currency: 'jpy' }} />, 'en')).toBe('');
    expect(stateText(<RefundState payment={null} />, 'en')).toBe('');
  });

  it('reads a row of the bookings feed', () => {
    const view: RefundView | null = refundOfFeed({ status: 'not_refunded', amount: 0, currency: 'JPY', share: 0 });
    expect(view).toEqual({ state: 'none' });
    expect(stateText(<RefundLine view={view} />, 'ja')).toBe('返金なし（キャンセルポリシーによる）');
    expect(refundOfFeed(null)).toBeNull();
    expect(refundOfFeed({ status: 'paid' })).toBeNull();
  });
});
