/**
 * The audit screen's data, pure (docs/protocol.md "Staff reading and acting", "Live
 * documents"): `staff-audit-read`'s reply, the filters it takes, and the clinic's live
 * document `clinics/{clinicId}/audit`, whose only use is to say that a new entry was recorded
 * (the screen then reads the list again through the audited call).
 */
import { contract } from '../contract';
import { isIsoDate } from '../intake/dates';
import { isRecord } from '../isRecord';
import { CLINICS_PREFIX } from './liveClinic';

export const auditPath = (clinicId: string) => `${CLINICS_PREFIX}${clinicId}/audit`;

/** The actions the server records (realtime/audit.py), in the order the filter offers them: contract.json `auditActions`, the one list. */
export const AUDIT_ACTIONS: readonly string[] = contract.auditActions;

export function isAuditAction(value: unknown): value is string {
  return typeof value === 'string' && AUDIT_ACTIONS.includes(value);
}

export interface AuditEntry {
  id: number;
  at: string;
  uid: string;
  email: string;
  role: string;
  appointmentId: string | null;
  action: string;
  detail: Record<string, unknown> | null;
  clientAddress: string | null;
}

export interface AuditPage {
  entries: AuditEntry[];
  /** Older entries were left out by the server: narrow the filters to see them. */
  more: boolean;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function parseEntry(value: unknown): AuditEntry | null {
  if (!isRecord(value) || typeof value.id !== 'number' || typeof value.at !== 'string' || typeof value.action !== 'string') return null;
  return {
    id: value.id,
    at: value.at,
    uid: text(value.uid) ?? '',
    email: text(value.email) ?? '',
    role: text(value.role) ?? '',
    appointmentId: text(value.appointmentId),
    action: value.action,
    detail: isRecord(value.detail) ? value.detail : null,
    clientAddress: text(value.clientAddress),
  };
}

/** `staff-audit-read`'s reply; malformed entries are left out, a malformed reply is null. */
export function parseAuditPage(data: unknown): AuditPage | null {
  if (!isRecord(data) || !Array.isArray(data.entries)) return null;
  const entries = data.entries.map(parseEntry).filter((entry): entry is AuditEntry => entry !== null);
  return { entries, more: data.more === true };
}

export interface AuditFilters {
  appointmentId: string;
  from: string;
  to: string;
  /** Applied on the screen: the call filters by appointment and days only. */
  action: string;
}

export const NO_FILTERS: AuditFilters = { appointmentId: '', from: '', to: '', action: '' };

/** What is wrong with the filters before they are sent (the server says the same in English). */
export function filtersProblem(filters: AuditFilters): 'appointmentId' | 'to' | null {
  if (filters.appointmentId.trim() !== '' && !/^[A-Za-z0-9_-]{1,64}$/.test(filters.appointmentId.trim())) return 'appointmentId';
  if (isIsoDate(filters.from) && isIsoDate(filters.to) && filters.to < filters.from) return 'to';
  return null;
}

/** The call's input: the clinic, and each filter that is set. */
export function auditRequest(clinicId: string, filters: AuditFilters): Record<string, string> {
  const request: Record<string, string> = { clinicId };
  const appointmentId = filters.appointmentId.trim();
  if (appointmentId !== '') request.appointmentId = appointmentId;
  if (isIsoDate(filters.from)) request.from = filters.from;
  if (isIsoDate(filters.to)) request.to = filters.to;
  return request;
}

export function byAction(entries: AuditEntry[], action: string): AuditEntry[] {
  return action === '' ? entries : entries.filter((entry) => entry.action === action);
}

/** The live document's marker of the newest entry (null: none, or not a known shape). */
export function latestIdOf(data: unknown): number | null {
  return isRecord(data) && typeof data.latestId === 'number' ? data.latestId : null;
}
