/**
 * The clinic's identity provider as `/staff/identity` reads and sets it (docs/protocol.md,
 * "Identity provider"): the reply of `identityProvider-read` (never a secret: only whether one
 * is set), the form's values, the input of `identityProvider-update`, and which field a refusal
 * names with which problem (realtime/contract.json `identityProviderProblems`, worded here in
 * the reader's language). The rules themselves are the server's (realtime/oidc/admin_rules.py).
 */
import { contract } from '../contract';
import { isRecord } from '../isRecord';
import { FunctionsError } from '../realtime/errors';

export type Source = 'settings' | 'workspace';

export interface ProviderFacts {
  name: string;
  issuer: string;
  clientId: string;
  mfaAcr: string[];
  enabled: boolean;
  secretSet: boolean;
  updated: string | null;
}

export interface IdentitySetting {
  redirectUri: string;
  version: number;
  source: Source | null;
  provider: ProviderFacts | null;
}

const isText = (value: unknown): value is string => typeof value === 'string';

function parseFacts(value: unknown): ProviderFacts | null | undefined {
  if (value === null) return null;
  if (!isRecord(value)) return undefined;
  const { name, issuer, clientId, mfaAcr, enabled, secretSet, updated } = value;
  if (!isText(name) || !isText(issuer) || !isText(clientId) || typeof enabled !== 'boolean' || typeof secretSet !== 'boolean') return undefined;
  if (!Array.isArray(mfaAcr) || !mfaAcr.every(isText) || !(updated === null || isText(updated))) return undefined;
  return { name, issuer, clientId, mfaAcr, enabled, secretSet, updated };
}

/** `identityProvider-read`'s reply (also `identityProvider-update`'s), or null if malformed. */
export function parseSetting(data: unknown): IdentitySetting | null {
  if (!isRecord(data) || !isText(data.redirectUri) || typeof data.version !== 'number') return null;
  const source = data.source === 'settings' || data.source === 'workspace' ? data.source : null;
  if (source === null && data.source !== null) return null;
  const provider = parseFacts(data.provider);
  if (provider === undefined) return null;
  return { redirectUri: data.redirectUri, version: data.version, source, provider };
}

/** The form's values: text as typed (the `acr` values one a line), the secret empty unless replaced. */
export interface IdentityForm {
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  mfaAcr: string;
  enabled: boolean;
}

export const FORM_FIELDS = ['name', 'issuer', 'clientId', 'clientSecret', 'mfaAcr'] as const;
export type FormField = (typeof FORM_FIELDS)[number];

export function formOf(setting: IdentitySetting): IdentityForm {
  const facts = setting.provider;
  return {
    name: facts?.name ?? '',
    issuer: facts?.issuer ?? '',
    clientId: facts?.clientId ?? '',
    clientSecret: '',
    mfaAcr: (facts?.mfaAcr ?? []).join('\n'),
    enabled: facts?.enabled ?? true,
  };
}

/** `identityProvider-update`'s input: an empty secret field keeps the stored secret (it is left out). */
export function updateOf(clinicId: string, setting: IdentitySetting, form: IdentityForm): Record<string, unknown> {
  const input: Record<string, unknown> = {
    clinicId,
    version: setting.version,
    name: form.name,
    issuer: form.issuer,
    clientId: form.clientId,
    mfaAcr: form.mfaAcr
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== ''),
    enabled: form.enabled,
  };
  if (form.clientSecret !== '') input.clientSecret = form.clientSecret;
  return input;
}

export type Problem = string;

/** Each field an INVALID_ARGUMENT refusal names, with its problem (`details.codes`; `null`: a
 * problem the contract does not list, worded generally). Null: not such a refusal. */
export function refusedFields(error: unknown): Partial<Record<FormField, Problem | null>> | null {
  if (!(error instanceof FunctionsError) || error.code !== 'invalid-argument' || !isRecord(error.details)) return null;
  const { fields, codes } = error.details;
  if (!isRecord(fields)) return null;
  const named: Partial<Record<FormField, Problem | null>> = {};
  for (const field of FORM_FIELDS) {
    const key = Object.keys(fields).find((path) => path === field || path.startsWith(`${field}.`));
    if (key === undefined) continue;
    const code = isRecord(codes) ? codes[field] : undefined;
    named[field] = isText(code) && contract.identityProviderProblems.includes(code) ? code : null;
  }
  return Object.keys(named).length === 0 ? null : named;
}

/** The values as they are now, from the refusal of an edit made against an older version. */
export function currentOf(error: unknown): IdentitySetting | null {
  if (!(error instanceof FunctionsError) || error.code !== 'aborted' || !isRecord(error.details)) return null;
  return parseSetting(error.details.current);
}

/** The refusal of an edit of a provider the server's setting names (it wins). */
export function isSetBySetting(error: unknown): boolean {
  return error instanceof FunctionsError && error.code === 'permission-denied' && isRecord(error.details) && error.details.reason === 'setting';
}

/** What `identityProvider.update`'s audit detail says changed, in the form's order, and what became of the secret. */
export const AUDITED_FIELDS = ['name', 'issuer', 'clientId', 'mfaAcr', 'enabled'] as const;
export type AuditedField = (typeof AUDITED_FIELDS)[number];
export const SECRET_CHANGES = ['set', 'replaced', 'removed'] as const;
export type SecretChange = (typeof SECRET_CHANGES)[number];

export function auditedChanges(detail: Record<string, unknown>): { fields: AuditedField[]; secret: SecretChange | null; enabled: boolean | null } {
  const changes = isRecord(detail.changes) ? detail.changes : {};
  const secret = SECRET_CHANGES.find((value) => value === detail.secret) ?? null;
  const enabledChange = changes.enabled;
  const enabled = isRecord(enabledChange) && typeof enabledChange.after === 'boolean' ? enabledChange.after : null;
  return { fields: AUDITED_FIELDS.filter((field) => field in changes), secret, enabled };
}
