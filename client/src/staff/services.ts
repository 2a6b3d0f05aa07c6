/**
 * The clinic's services as `/staff/services` reads and edits them (docs/protocol.md,
 * "Services"): the reply of `services-read`, the edit form's values, the input of
 * `service-update`, and which form field a refusal names. The rules themselves are the
 * server's (realtime/booking/service_rules.py); the screen words a refused field in the
 * reader's language.
 */
import { isRecord } from '../isRecord';
import { FunctionsError } from '../realtime/errors';

export interface Names {
  ja: string;
  en: string;
}

export interface Money {
  amount: number;
  currency: string;
}

export interface StaffService {
  id: string;
  category: string;
  name: Names;
  price: Money | null;
  sessionMinutes: number;
  bufferMinutes: number;
  minNoticeHours: number;
  horizonDays: number;
  gestationWeeks: { min: number; max: number } | null;
  cancellationPolicy: { freeCancelHours: number; lateRefundPercent: number };
  active: boolean;
  version: number;
}

const isInt = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

function namesOf(value: unknown): Names | null {
  return isRecord(value) && typeof value.ja === 'string' && typeof value.en === 'string' ? { ja: value.ja, en: value.en } : null;
}

function moneyOf(value: unknown): Money | null | undefined {
  if (value === null) return null;
  return isRecord(value) && isInt(value.amount) && typeof value.currency === 'string' ? { amount: value.amount, currency: value.currency } : undefined;
}

function weeksOf(value: unknown): { min: number; max: number } | null | undefined {
  if (value === null) return null;
  return isRecord(value) && isInt(value.min) && isInt(value.max) ? { min: value.min, max: value.max } : undefined;
}

/** One service of `services-read` (or the reply of `service-update`), or null if malformed. */
export function parseService(value: unknown): StaffService | null {
  if (!isRecord(value) || typeof value.id !== 'string' || typeof value.category !== 'string') return null;
  const name = namesOf(value.name);
  const price = moneyOf(value.price);
  const gestationWeeks = weeksOf(value.gestationWeeks);
  const policy = value.cancellationPolicy;
  const numbers = [value.sessionMinutes, value.bufferMinutes, value.minNoticeHours, value.horizonDays, value.version];
  if (name === null || price === undefined || gestationWeeks === undefined || !numbers.every(isInt)) return null;
  if (!isRecord(policy) || !isInt(policy.freeCancelHours) || !isInt(policy.lateRefundPercent) || typeof value.active !== 'boolean') return null;
  return {
    id: value.id,
    category: value.category,
    name,
    price,
    sessionMinutes: value.sessionMinutes as number,
    bufferMinutes: value.bufferMinutes as number,
    minNoticeHours: value.minNoticeHours as number,
    horizonDays: value.horizonDays as number,
    gestationWeeks,
    cancellationPolicy: { freeCancelHours: policy.freeCancelHours, lateRefundPercent: policy.lateRefundPercent },
    active: value.active,
    version: value.version as number,
  };
}

/** The list of `services-read`, or null if malformed. */
export function parseServices(data: unknown): StaffService[] | null {
  if (!isRecord(data) || !Array.isArray(data.services)) return null;
  const services = data.services.map(parseService);
  return services.every((service): service is StaffService => service !== null) ? services : null;
}

/** Digits of a currency's minor unit as the browser knows them (JPY 0, USD 2). */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** A stored amount (smallest unit) in the currency's own units: 1050 USD -> 10.5. */
export function majorAmount(price: Money): number {
  return price.amount / 10 ** minorDigits(price.currency);
}

/** The edit form's values: text as typed, checkboxes as booleans. */
export interface ServiceForm {
  nameJa: string;
  nameEn: string;
  paid: boolean;
  amount: string;
  currency: string;
  sessionMinutes: string;
  bufferMinutes: string;
  minNoticeHours: string;
  horizonDays: string;
  pregnancy: boolean;
  minWeeks: string;
  maxWeeks: string;
  freeUntilHours: string;
  lateRefundPercent: string;
  active: boolean;
}

export type FormField = keyof ServiceForm;

export function formOf(service: StaffService): ServiceForm {
  return {
    nameJa: service.name.ja,
    nameEn: service.name.en,
    paid: service.price !== null,
    amount: service.price === null ? '' : String(majorAmount(service.price)),
    currency: service.price?.currency ?? 'JPY',
    sessionMinutes: String(service.sessionMinutes),
    bufferMinutes: String(service.bufferMinutes),
    minNoticeHours: String(service.minNoticeHours),
    horizonDays: String(service.horizonDays),
    pregnancy: service.gestationWeeks !== null,
    minWeeks: service.gestationWeeks === null ? '' : String(service.gestationWeeks.min),
    maxWeeks: service.gestationWeeks === null ? '' : String(service.gestationWeeks.max),
    freeUntilHours: String(service.cancellationPolicy.freeCancelHours),
    lateRefundPercent: String(service.cancellationPolicy.lateRefundPercent),
    active: service.active,
  };
}

/** Full-width digits and the Japanese decimal point read as ASCII, spaces dropped. */
function ascii(text: string): string {
  return text.replace(/[０-９．]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)).trim();
}

/** A whole number as typed, or null. */
function wholeNumber(text: string): number | null {
  const value = ascii(text);
  return /^\d{1,9}$/.test(value) ? Number(value) : null;
}

/** An amount typed in the currency's units (16500 yen, 10.50 dollars) in its smallest unit. */
function smallestUnits(text: string, currency: string): number | null {
  const value = ascii(text).replace(/,/g, '');
  const digits = minorDigits(currency);
  const match = /^(\d{1,9})(?:\.(\d+))?$/.exec(value);
  if (match === null) return null;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > digits) return null;
  return Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

export type UpdateInput = Record<string, unknown>;

/** `service-update`'s input from the form, or the fields whose text is no number. */
export function updateOf(clinicId: string, service: StaffService, form: ServiceForm): { input: UpdateInput } | { unreadable: FormField[] } {
  const currency = form.paid ? form.currency.trim().toUpperCase() : '';
  const numbers = {
    sessionMinutes: wholeNumber(form.sessionMinutes),
    bufferMinutes: wholeNumber(form.bufferMinutes),
    minNoticeHours: wholeNumber(form.minNoticeHours),
    horizonDays: wholeNumber(form.horizonDays),
    freeUntilHours: wholeNumber(form.freeUntilHours),
    lateRefundPercent: wholeNumber(form.lateRefundPercent),
    minWeeks: form.pregnancy ? wholeNumber(form.minWeeks) : 0,
    maxWeeks: form.pregnancy ? wholeNumber(form.maxWeeks) : 0,
    amount: form.paid ? smallestUnits(form.amount, currency) : 0,
  };
  const unreadable = (Object.keys(numbers) as (keyof typeof numbers)[]).filter((field) => numbers[field] === null);
  if (unreadable.length > 0) return { unreadable };
  const n = numbers as Record<keyof typeof numbers, number>;
  return {
    input: {
      clinicId,
      serviceId: service.id,
      version: service.version,
      name: { ja: form.nameJa, en: form.nameEn },
      price: form.paid ? { amount: n.amount, currency } : null,
      sessionMinutes: n.sessionMinutes,
      bufferMinutes: n.bufferMinutes,
      minNoticeHours: n.minNoticeHours,
      horizonDays: n.horizonDays,
      gestation: form.pregnancy ? { minWeeks: n.minWeeks, maxWeeks: n.maxWeeks } : null,
      cancellation: { freeUntilHours: n.freeUntilHours, lateRefundPercent: n.lateRefundPercent },
      active: form.active,
    },
  };
}

/** The form field each path of a refusal's `details.fields` names. */
const FIELD_OF: Record<string, FormField> = {
  'name.ja': 'nameJa',
  'name.en': 'nameEn',
  price: 'amount',
  'price.amount': 'amount',
  'price.currency': 'currency',
  sessionMinutes: 'sessionMinutes',
  bufferMinutes: 'bufferMinutes',
  minNoticeHours: 'minNoticeHours',
  horizonDays: 'horizonDays',
  gestation: 'minWeeks',
  'gestation.minWeeks': 'minWeeks',
  'gestation.maxWeeks': 'maxWeeks',
  'cancellation.freeUntilHours': 'freeUntilHours',
  'cancellation.lateRefundPercent': 'lateRefundPercent',
  active: 'active',
};

/** The form fields an INVALID_ARGUMENT refusal names (null: not such a refusal). */
export function refusedFields(error: unknown): FormField[] | null {
  if (!(error instanceof FunctionsError) || error.code !== 'invalid-argument' || !isRecord(error.details)) return null;
  const fields = error.details.fields;
  if (!isRecord(fields)) return null;
  const named = Object.keys(fields)
    .map((path) => FIELD_OF[path])
    .filter((field): field is FormField => field !== undefined);
  return named.length === 0 ? null : [...new Set(named)];
}

/** The service as it is now, from the refusal of an edit made against an older version. */
export function currentOf(error: unknown): StaffService | null {
  if (!(error instanceof FunctionsError) || error.code !== 'aborted' || !isRecord(error.details)) return null;
  return parseService(error.details.current);
}

/** The refusal of a service another clinic offers too (nobody here may change it). */
export function isShared(error: unknown): boolean {
  return error instanceof FunctionsError && error.code === 'permission-denied' && isRecord(error.details) && error.details.reason === 'shared';
}

/** The settings of a service as `service.update`'s audit detail names them (`changes`). */
export const SETTINGS = ['name', 'price', 'sessionMinutes', 'bufferMinutes', 'minNoticeHours', 'horizonDays', 'gestation', 'cancellation', 'active'] as const;
export type Setting = (typeof SETTINGS)[number];

/** The settings an audit entry of `service.update` says were changed, in the form's order. */
export function changedSettings(detail: Record<string, unknown>): Setting[] {
  const changes = detail.changes;
  return isRecord(changes) ? SETTINGS.filter((setting) => setting in changes) : [];
}
