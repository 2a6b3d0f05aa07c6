import { ScreenPlaceholder } from '../components/ScreenPlaceholder';

/** /b/pgt-reports: analysis reports. Built by a later issue. */
export default function PgtReports() {
  return <ScreenPlaceholder screen="bookingPgtReports" />;
}
