import { ScreenPlaceholder } from '../components/ScreenPlaceholder';

/** /downloads/:clinicId/:docId/:locale. Built by a later issue. */
export default function Downloads() {
  return <ScreenPlaceholder screen="downloads" />;
}
