import { ScreenPlaceholder } from '../components/ScreenPlaceholder';

/** /contact (query id, name, email): contact us form. Built by a later issue. */
export default function Contact() {
  return <ScreenPlaceholder screen="contact" />;
}
