import { ScreenPlaceholder } from '../components/ScreenPlaceholder';

/** /b/clinic and its alias /b/ (query id): health care provider code entry. Built by a later issue. */
export default function Clinic() {
  return <ScreenPlaceholder screen="bookingClinic" />;
}
