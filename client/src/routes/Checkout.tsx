import { ScreenPlaceholder } from '../components/ScreenPlaceholder';

/** /b/checkout: card payment. Built by a later issue. */
export default function Checkout() {
  return <ScreenPlaceholder screen="bookingCheckout" />;
}
