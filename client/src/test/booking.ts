/**
 * Test helpers of the booking screens (imported by tests only): a signed-in person's
 * appointment with its service and clinic in the store, month documents pushed as the server
 * would, slots in the clinic's zone, and a browser that lives in another time zone.
 */
import { act, waitFor, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { useAppStore } from '../store';
import { completeIntake, pushAppointment, seedAppointment, type SeedOptions } from './intake';
import { liveMonths, vacanciesPath } from '../booking/liveMonths';
import type { Slot } from '../booking/slots';

export const CLINIC_ZONE = 'Asia/Tokyo';

export interface BookingSeed extends SeedOptions {
  /** Extra fields of service-read (price, horizonDays, gestationWeeks, name, ...). */
  service?: Record<string, unknown>;
}

/** The appointment a1 of the clinic demo-clinic (Asia/Tokyo) and its service `${category}-svc`. */
export function seedBooking({ service = {}, ...options }: BookingSeed = {}): void {
  const category = options.category ?? 'cancer';
  seedAppointment({ ...options, category });
  act(() => {
    useAppStore.getState().setReadDocument('service', `${category}-svc`, {
      id: `${category}-svc`,
      category,
      consentVersion: '2026-11',
      name: { ja: 'がんの遺伝カウンセリング', en: 'Hereditary cancer counseling' },
      price: null,
      sessionMinutes: 60,
      minNoticeHours: 24,
      horizonDays: 60,
      gestationWeeks: null,
      ...service,
    });
  });
}

export { completeIntake, pushAppointment };

/**
 * An appointment's fields once everything is chosen: the patient role, the terms agreed, and
 * 5 March 2025 11:00 (Tokyo) with c-brown. Tests add the status, the e-mail language and the rest.
 */
export const readyBooking = {
  patientRole: 90,
  agreedToTerms: true,
  date: '2025-03-05',
  time: '11:00',
  timezone: CLINIC_ZONE,
  counselorId: 'c-brown',
};

/** A booking summary card's rows, as [term, its description]: what the person reads. */
export function summaryRows(card: HTMLElement): [string | null, string | null | undefined][] {
  return within(card)
    .getAllByRole('term')
    .map((term) => [term.textContent, term.nextElementSibling?.textContent]);
}

/** A slot of the clinic at a Tokyo wall time "2025-03-05T10:00", one hour long. */
export function slot(wall: string, counselorIds: string[] = ['c-sato', 'c-tanaka']): Slot {
  const start = `${wall}:00+09:00`;
  const end = new Date(Date.parse(start) + 3_600_000).toISOString();
  return { start, end, counselorIds };
}

const versions = new Map<string, number>();

/**
 * The server pushes the month document `vacancies/demo-clinic/{serviceId}/{month}` (the next
 * version), once the screen follows it.
 */
export async function pushMonth(month: string, slots: Slot[], serviceId = 'cancer-svc'): Promise<void> {
  const path = vacanciesPath('demo-clinic', serviceId, month);
  await waitFor(() => {
    expect(liveMonths.followed()).toContain(path);
  });
  const version = (versions.get(path) ?? 0) + 1;
  versions.set(path, version);
  act(() => {
    liveMonths.receive({ path, exists: true, data: { timezone: CLINIC_ZONE, slots }, version });
  });
}

export function resetMonths(): void {
  versions.clear();
}

/**
 * A browser in another time zone, by date math rather than the machine's zone: every local
 * Date getter and every Intl format without an explicit `timeZone` answers as if the browser
 * were `offsetHours` from UTC in `zone`. Code that places days by the browser's clock instead
 * of the clinic's would show them on the wrong day.
 */
export function simulateBrowserZone(zone: string, offsetHours: number): void {
  const shift = (date: Date) => new Date(date.getTime() + offsetHours * 3_600_000);
  const proto = Date.prototype;
  vi.spyOn(proto, 'getTimezoneOffset').mockImplementation(() => -offsetHours * 60);
  vi.spyOn(proto, 'getFullYear').mockImplementation(function (this: Date) {
    return shift(this).getUTCFullYear();
  });
  vi.spyOn(proto, 'getMonth').mockImplementation(function (this: Date) {
    return shift(this).getUTCMonth();
  });
  vi.spyOn(proto, 'getDate').mockImplementation(function (this: Date) {
    return shift(this).getUTCDate();
  });
  vi.spyOn(proto, 'getDay').mockImplementation(function (this: Date) {
    return shift(this).getUTCDay();
  });
  vi.spyOn(proto, 'getHours').mockImplementation(function (this: Date) {
    return shift(this).getUTCHours();
  });
  const RealFormat = Intl.DateTimeFormat;
  const Zoned = function (locales?: string | string[], options?: Intl.DateTimeFormatOptions) {
    return new RealFormat(locales, { ...options, timeZone: options?.timeZone ?? zone });
  } as unknown as typeof Intl.DateTimeFormat;
  Object.assign(Zoned, { supportedLocalesOf: RealFormat.supportedLocalesOf.bind(RealFormat) });
  // Intl's members are not enumerable: the real ones stay reachable through the prototype.
  vi.stubGlobal('Intl', Object.create(Intl, { DateTimeFormat: { value: Zoned } }) as typeof Intl);
}
