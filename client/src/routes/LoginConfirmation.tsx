import { ScreenPlaceholder } from '../components/ScreenPlaceholder';

/** /login-confirmation: confirmation of the e-mail link. Built by a later issue. */
export default function LoginConfirmation() {
  return <ScreenPlaceholder screen="loginConfirmation" />;
}
