import { ScreenPlaceholder } from '../components/ScreenPlaceholder';

/** /b/payment-confirmed (query sessionId): payment confirmation. Built by a later issue. */
export default function PaymentConfirmed() {
  return <ScreenPlaceholder screen="bookingPaymentConfirmed" />;
}
