import { ScreenPlaceholder } from '../components/ScreenPlaceholder';

/** /b/confirmed: appointment confirmed. Built by a later issue. */
export default function Confirmed() {
  return <ScreenPlaceholder screen="bookingConfirmed" />;
}
