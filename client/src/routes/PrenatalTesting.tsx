import { ScreenPlaceholder } from '../components/ScreenPlaceholder';

/** /b/prenatal-testing: prenatal testing. Built by a later issue. */
export default function PrenatalTesting() {
  return <ScreenPlaceholder screen="bookingPrenatalTesting" />;
}
