import { ScreenPlaceholder } from '../components/ScreenPlaceholder';

/** /b/contact: contact information. Built by a later issue. */
export default function ContactInfo() {
  return <ScreenPlaceholder screen="bookingContact" />;
}
