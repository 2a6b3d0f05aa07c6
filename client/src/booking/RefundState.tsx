/**
 * Refunds in words. RefundState / RefundLine: where a cancelled booking's refund stands, in
 * one line ("Refunded ¥8,250", "Refund pending", "No refund (cancellation policy)"; nothing
 * for a payment that is not being refunded), for My booking (the appointment's `payment`) and
 * the staff screens (a RefundView). RefundQuote: what a cancel now would give back, in the
 * cancel dialog.
 */
import { useTranslation } from 'react-i18next';
import { selectLocale } from '../store/selectors';
import { useAppStore } from '../store';
import { formatPrice } from './format';
import type { Locale } from '../i18n/locale';
import { refundOfPayment, type QuoteWording, type RefundView } from './refund';

export interface RefundStateProps {
  /** The appointment document's `payment` (docs/protocol.md "Cancelling and refunds"). */
  payment: unknown;
}

export function RefundState({ payment }: RefundStateProps) {
  return <RefundLine view={refundOfPayment(payment)} />;
}

export function RefundLine({ view }: { view: RefundView | null }) {
  const { t } = useTranslation('booking');
  const locale = useAppStore(selectLocale);
  if (view === null) return null;
  const text =
    view.state === 'none'
      ? t('refund.state.none')
      : view.price === null
        ? t(`refund.state.${view.state}`)
        : t(`refund.state.${view.state}Amount`, { price: formatPrice(view.price, locale) });
  return (
    <span className="refund-state" data-refund={view.state}>
      {text}
    </span>
  );
}

/** The cancel dialog's sentence for a quote; nothing for a free service. */
export function RefundQuote({ wording, locale }: { wording: QuoteWording; locale: Locale }) {
  const { t } = useTranslation('booking');
  if (wording === null) return null;
  const text =
    wording.key === 'none'
      ? t('refund.quote.none')
      : wording.key === 'full'
        ? t('refund.quote.full', { price: formatPrice(wording.price, locale) })
        : t('refund.quote.partial', { price: formatPrice(wording.price, locale), share: wording.share });
  return (
    <p className="booking-cancel-refund" data-refund={wording.key}>
      {text}
    </p>
  );
}
