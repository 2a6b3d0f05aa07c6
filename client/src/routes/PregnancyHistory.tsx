import { ScreenPlaceholder } from '../components/ScreenPlaceholder';

/** /b/pregnancy-history: pregnancy history. Built by a later issue. */
export default function PregnancyHistory() {
  return <ScreenPlaceholder screen="bookingPregnancyHistory" />;
}
