import { ScreenPlaceholder } from '../components/ScreenPlaceholder';

/** /b/review: review and submit. Built by a later issue. */
export default function Review() {
  return <ScreenPlaceholder screen="bookingReview" />;
}
