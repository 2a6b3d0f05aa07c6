import { ScreenPlaceholder } from '../components/ScreenPlaceholder';

/** /b/fertility-treatment: fertility treatment history. Built by a later issue. */
export default function FertilityTreatment() {
  return <ScreenPlaceholder screen="bookingFertilityTreatment" />;
}
