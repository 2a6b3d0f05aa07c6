/**
 * The translation namespaces (client/src/locales/{ja,en}/<namespace>.json) and which of them
 * load when (docs/architecture.md, "Client": how translations load). Plain lists, no JSON: the
 * app's start imports this, never the translations themselves.
 */
export const namespaces = ['common', 'routes', 'errors', 'intake', 'screens', 'booking', 'staff', 'account'] as const;
export type Namespace = (typeof namespaces)[number];

/** What the first screen (the login screens, the frame, the system error page) reads. */
export const firstScreenNamespaces = ['common', 'routes', 'errors'] as const satisfies readonly Namespace[];

/** Everything a client's screens read: all but the clinic's (staff) namespace. */
export const clientNamespaces = namespaces.filter((ns) => ns !== 'staff');
