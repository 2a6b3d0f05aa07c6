import { ScreenPlaceholder } from '../components/ScreenPlaceholder';

/** /b/family: family history, add family member. Built by a later issue. */
export default function Family() {
  return <ScreenPlaceholder screen="bookingFamily" />;
}
