import { ScreenPlaceholder } from '../components/ScreenPlaceholder';

/** /b/pregnancy-current: current pregnancy. Built by a later issue. */
export default function PregnancyCurrent() {
  return <ScreenPlaceholder screen="bookingPregnancyCurrent" />;
}
