/** Translation resources, split by language and namespace (client/src/locales/{ja,en}/*.json). */
import enCommon from '../locales/en/common.json';
import enErrors from '../locales/en/errors.json';
import enRoutes from '../locales/en/routes.json';
import jaCommon from '../locales/ja/common.json';
import jaErrors from '../locales/ja/errors.json';
import jaRoutes from '../locales/ja/routes.json';

export const namespaces = ['common', 'routes', 'errors'] as const;
export type Namespace = (typeof namespaces)[number];

export const resources = {
  ja: { common: jaCommon, routes: jaRoutes, errors: jaErrors },
  en: { common: enCommon, routes: enRoutes, errors: enErrors },
} as const;
