import 'i18next';
import type { resources } from './resources';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    // Japanese is the reference language: every key used in code must exist in it, and the
    // locale parity test makes sure English has exactly the same keys.
    resources: (typeof resources)['ja'];
  }
}
