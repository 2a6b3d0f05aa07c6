/**
 * Facts shared with the server, read from the one file both sides load
 * (realtime/contract.json). Never retype these values elsewhere in the client.
 */
// A namespace import, re-exported as `contract`: the build then keeps each key the client reads
// as a value of its own and leaves out the others (the server's path prefixes, the file's comment,
// ...), where the default import would keep the whole object: 0.4 KB gzip of the first load
// (docs/benchmarks.md "Client first load").
import * as contractJson from '../../realtime/contract.json';

type ContractJson = typeof contractJson;

/** Wire status of a callable error, e.g. "INVALID_ARGUMENT". */
export type ErrorStatus = keyof ContractJson['errorStatuses'];

type Dashed<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}-${Dashed<Tail>}` : S;

/**
 * Firebase-style error code, e.g. "invalid-argument", plus "unknown" for anything the
 * table does not name. Derived from the contract at the type level.
 */
export type FunctionsErrorCode = Dashed<Lowercase<ErrorStatus>> | 'unknown';

export { contractJson as contract };

export const errorStatuses: Readonly<Record<ErrorStatus, number>> = contractJson.errorStatuses;

/** "INVALID_ARGUMENT" -> "invalid-argument". */
export function codeForStatus(status: ErrorStatus): FunctionsErrorCode {
  return status.toLowerCase().replace(/_/g, '-') as FunctionsErrorCode;
}

export function isErrorStatus(value: unknown): value is ErrorStatus {
  return typeof value === 'string' && Object.hasOwn(errorStatuses, value);
}

const statusByHttp = new Map<number, ErrorStatus>(
  (Object.keys(errorStatuses) as ErrorStatus[]).map((status) => [errorStatuses[status], status]),
);

/** HTTP status -> error code per the contract table; anything else is "unknown". */
export function codeForHttpStatus(httpStatus: number): FunctionsErrorCode {
  const status = statusByHttp.get(httpStatus);
  return status === undefined ? 'unknown' : codeForStatus(status);
}

/** Error code -> the HTTP status the contract gives it (undefined for "unknown"). */
export function httpStatusForCode(code: FunctionsErrorCode): number | undefined {
  for (const status of Object.keys(errorStatuses) as ErrorStatus[]) {
    if (codeForStatus(status) === code) return errorStatuses[status];
  }
  return undefined;
}

/** Every error code the client can show: one per contract status, plus "unknown". */
export const functionsErrorCodes: readonly FunctionsErrorCode[] = [
  ...(Object.keys(errorStatuses) as ErrorStatus[]).map(codeForStatus),
  'unknown',
];

export const supportedLocales: readonly string[] = contractJson.locales;
export const defaultLocaleName: string = contractJson.defaultLocale;
export const functionTimeoutMs: number = contractJson.functionTimeoutMs;
export const retryHttpStatuses: ReadonlySet<number> = new Set(contractJson.retryHttpStatuses);
export const serviceAliases: readonly string[] = contractJson.serviceAliases;
/** What a booking mail's signed link is for, and the query parameter carrying it (realtime/link_tokens.py). */
export const linkPurposes: readonly string[] = contractJson.linkPurposes;
export const linkTokenParam: string = contractJson.linkTokenParam;
/** The largest clinic document an administrator may upload (bytes). */
export const maxDocumentBytes: number = contractJson.maxDocumentBytes;

/**
 * Every path the client routes, in react-router syntax (contract.json "clientRoutes"; the
 * server answers any other path with 404 and this client, which shows its not-found page).
 */
export const clientRoutes: readonly string[] = contractJson.clientRoutes;

/** A path of the route table, which must be one of `clientRoutes` (else the module fails to load). */
export function clientRoute(path: string): string {
  if (!clientRoutes.includes(path)) throw new Error(`${path} is not in contract.json clientRoutes`);
  return path;
}
