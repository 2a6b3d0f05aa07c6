import { ScreenPlaceholder } from '../components/ScreenPlaceholder';

/** /b/appointment: date, time, counselor and e-mail language. Built by a later issue. */
export default function Appointment() {
  return <ScreenPlaceholder screen="bookingAppointment" />;
}
