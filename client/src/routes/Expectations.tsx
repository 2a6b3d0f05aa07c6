import { ScreenPlaceholder } from '../components/ScreenPlaceholder';

/** /b/expectations: requests and expectations. Built by a later issue. */
export default function Expectations() {
  return <ScreenPlaceholder screen="bookingExpectations" />;
}
