import { ScreenPlaceholder } from '../components/ScreenPlaceholder';

/** /b/profile: dates of birth. Built by a later issue. */
export default function Profile() {
  return <ScreenPlaceholder screen="bookingProfile" />;
}
