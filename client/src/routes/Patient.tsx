import { ScreenPlaceholder } from '../components/ScreenPlaceholder';

/** /b/patient: patient ID and patient role. Built by a later issue. */
export default function Patient() {
  return <ScreenPlaceholder screen="bookingPatient" />;
}
