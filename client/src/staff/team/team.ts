/**
 * The staff accounts of a clinic as `staff-list` gives them, and the refusals of
 * `staff-invite` / `staff-update` in words (docs/protocol.md "Clinic administration" /
 * "Staff accounts"). The server decides every rule; the screen only says what it answered.
 */
import { isRecord } from '../../isRecord';
import { errorMessageKey, FunctionsError } from '../../realtime';

export type TeamRole = 'counselor' | 'clinic_admin';

export interface Member {
  staffId: number;
  email: string;
  role: TeamRole;
  counselorId: string | null;
  invitedAt: string | null;
  secondFactor: boolean;
  removedAt: string | null;
}

export interface TeamCounselor {
  counselorId: string;
  name: { ja?: string; en?: string };
  /** The active member who is this counselor, if any. */
  staffId: number | null;
}

export interface Team {
  staff: Member[];
  counselors: TeamCounselor[];
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function parseMember(value: unknown): Member | null {
  if (!isRecord(value) || typeof value.staffId !== 'number' || typeof value.email !== 'string') return null;
  if (value.role !== 'counselor' && value.role !== 'clinic_admin') return null;
  return {
    staffId: value.staffId,
    email: value.email,
    role: value.role,
    counselorId: text(value.counselorId),
    invitedAt: text(value.invitedAt),
    secondFactor: value.secondFactor === true,
    removedAt: text(value.removedAt),
  };
}

function parseCounselor(value: unknown): TeamCounselor | null {
  if (!isRecord(value) || typeof value.counselorId !== 'string') return null;
  const name = isRecord(value.name) ? value.name : {};
  return {
    counselorId: value.counselorId,
    name: { ...(typeof name.ja === 'string' ? { ja: name.ja } : {}), ...(typeof name.en === 'string' ? { en: name.en } : {}) },
    staffId: typeof value.staffId === 'number' ? value.staffId : null,
  };
}

/** The reply of `staff-list`, or null when it is not one. */
export function parseTeam(data: unknown): Team | null {
  if (!isRecord(data) || !Array.isArray(data.staff) || !Array.isArray(data.counselors)) return null;
  const staff = data.staff.map(parseMember);
  const counselors = data.counselors.map(parseCounselor);
  if (staff.includes(null) || counselors.includes(null)) return null;
  return { staff: staff.filter((m): m is Member => m !== null), counselors: counselors.filter((c): c is TeamCounselor => c !== null) };
}

/** A counselor's name in the screen's language (the other one, else the id, when missing). */
export function counselorName(counselor: TeamCounselor, locale: string): string {
  const { ja, en } = counselor.name;
  return (locale === 'ja' ? (ja ?? en) : (en ?? ja)) ?? counselor.counselorId;
}

/** The refusal reasons the server names (`details.reason`), each worded in staff.json `team.refused`. */
export const REFUSAL_REASONS = [
  'otherClinic',
  'alreadyMember',
  'clientAccount',
  'needsCounselor',
  'adminHasNoCounselor',
  'noSuchCounselor',
  'counselorTaken',
  'lastAdmin',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

type RefusalKey = `staff:team.refused.${RefusalReason | 'tooMany'}` | 'errors:invalidEmail' | ReturnType<typeof errorMessageKey>;

export interface Refusal {
  /** The translation key of the message. */
  key: RefusalKey;
  /** The input field it is about, when the server named one. */
  field: string | null;
}

/** What a refused call says, as a translation key and the field it names. */
export function refusalOf(error: unknown): Refusal {
  const details = error instanceof FunctionsError && isRecord(error.details) ? error.details : {};
  const fields = isRecord(details.fields) ? Object.keys(details.fields) : [];
  const field = fields[0] ?? null;
  const reason = details.reason;
  const named = REFUSAL_REASONS.find((known) => known === reason);
  if (named !== undefined) return { key: `staff:team.refused.${named}`, field };
  if (field === 'email') return { key: 'errors:invalidEmail', field };
  if (error instanceof FunctionsError && error.code === 'resource-exhausted') return { key: 'staff:team.refused.tooMany', field: null };
  return { key: errorMessageKey(error), field };
}
