/**
 * Translation resources, split by language and namespace (client/src/locales/{ja,en}/*.json).
 * The questionnaire's own words (steps, fields, options, rules, messages) are not here: they
 * come from the intake definition (realtime/intake/definition.json), in both languages.
 *
 * Every file, imported statically: for tests (every key in both languages) and for the types
 * (i18next.d.ts). The app itself loads them one by one on demand (bundles.ts): import only
 * types from here in app code.
 */
import enAccount from '../locales/en/account.json';
import enBooking from '../locales/en/booking.json';
import enCommon from '../locales/en/common.json';
import enErrors from '../locales/en/errors.json';
import enIntake from '../locales/en/intake.json';
import enRoutes from '../locales/en/routes.json';
import enScreens from '../locales/en/screens.json';
import enStaff from '../locales/en/staff.json';
import jaAccount from '../locales/ja/account.json';
import jaBooking from '../locales/ja/booking.json';
import jaCommon from '../locales/ja/common.json';
import jaErrors from '../locales/ja/errors.json';
import jaIntake from '../locales/ja/intake.json';
import jaRoutes from '../locales/ja/routes.json';
import jaScreens from '../locales/ja/screens.json';
import jaStaff from '../locales/ja/staff.json';

export { namespaces, type Namespace } from './namespaces';

export const resources = {
  ja: { common: jaCommon, routes: jaRoutes, errors: jaErrors, intake: jaIntake, screens: jaScreens, booking: jaBooking, staff: jaStaff, account: jaAccount },
  en: { common: enCommon, routes: enRoutes, errors: enErrors, intake: enIntake, screens: enScreens, booking: enBooking, staff: enStaff, account: enAccount },
} as const;
