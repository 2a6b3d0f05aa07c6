import { ScreenPlaceholder } from '../components/ScreenPlaceholder';

/** /terms: terms of service. Built by a later issue. */
export default function Terms() {
  return <ScreenPlaceholder screen="terms" />;
}
