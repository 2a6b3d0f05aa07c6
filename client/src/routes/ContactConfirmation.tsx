import { ScreenPlaceholder } from '../components/ScreenPlaceholder';

/** /contact-confirmation. Built by a later issue. */
export default function ContactConfirmation() {
  return <ScreenPlaceholder screen="contactConfirmation" />;
}
