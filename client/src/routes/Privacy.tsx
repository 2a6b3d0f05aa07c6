import { ScreenPlaceholder } from '../components/ScreenPlaceholder';

/** /privacy: privacy policy. Built by a later issue. */
export default function Privacy() {
  return <ScreenPlaceholder screen="privacy" />;
}
