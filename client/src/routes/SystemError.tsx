import { SystemErrorMessage } from '../components/SystemErrorMessage';

/** `/error`: the system error page (unexpected error, the team is investigating). */
export default function SystemError() {
  return <SystemErrorMessage />;
}
