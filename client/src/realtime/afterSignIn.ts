/**
 * What happens once someone is signed in (docs/product.md "The booking flow"), driven by the store (the realtime
 * bindings already follow `users/{uid}` and the appointment it names):
 *
 * - Locale: the user record's if valid (the reducer applies it). When the record has no valid
 *   locale, the interface's current one (the login screen's `?locale`, else the browser's
 *   language if supported, else ja, or what the person picked) is written together with the
 *   user agent and the app version, in one update against the version read, so a locale set
 *   meanwhile elsewhere is never overwritten. A language picked later (the switcher) is
 *   written as the record's `locale`.
 * - Appointment: when the record has no `appointmentId`, `appointment-create` is called once
 *   per sign-in. If that fails, the error is reported to the admin (`sendEmail-admin`), the
 *   person is signed out and returned to the login screen, which says why. A record naming an
 *   ended appointment (cancelled, completed, no_show, expired) gets nothing created here: the
 *   person chooses how to start again, from a copy of its answers or not
 *   (booking/StartAgain.tsx).
 * - Clinic and service: read (`clinic-read`, `service-read`) into the store when the
 *   appointment's `clinicId` / `serviceId` change, not on every push of the appointment.
 * - A socket refused as `unauthenticated`, or a `session` event `expired`: signed out here too.
 */
import { isStaff } from '../auth/roles';
import { isLocale } from '../i18n/locale';
import type { AppStore, LoginNotice } from '../store';
import { selectAppointmentId } from '../store/selectors';
import type { CallFunction } from './callable';
import type { RealtimeClient } from './client';
import { FunctionsError } from './errors';
import { isRecord } from '../isRecord';

export const MAX_USER_AGENT_LENGTH = 512;
export const MAX_VERSION_LENGTH = 64;
const MAX_REPORT_MESSAGE_LENGTH = 2000;
const MAX_REPORT_STACK_LENGTH = 8000;

export interface AfterSignInDeps {
  store: AppStore;
  realtime: Pick<RealtimeClient, 'update' | 'onConnectError' | 'onSession'>;
  call: CallFunction;
  /** Signs out (resolves once the store is reset). */
  signOut: () => Promise<void>;
  /** Shows the login screen. */
  goToLogin: () => void;
  userAgent: string;
  appVersion: string;
  /** The current path, without query (a query may carry a token). */
  route: () => string;
  warn?: (message: string, error?: unknown) => void;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The `error` part of a sendEmail-admin report. */
export function reportedError(error: unknown) {
  const functionsError = error instanceof FunctionsError ? error : null;
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : 'Non-error value thrown';
  return {
    code: functionsError?.code ?? 'unknown',
    message: message.slice(0, MAX_REPORT_MESSAGE_LENGTH),
    details: functionsError?.details ?? null,
    stack: (error instanceof Error ? (error.stack ?? '') : '').slice(0, MAX_REPORT_STACK_LENGTH),
  };
}

export function bindAfterSignIn(deps: AfterSignInDeps): () => void {
  const { store, realtime, call } = deps;
  const warn =
    deps.warn ??
    ((message: string, error?: unknown) => {
      console.warn(message, error);
    });

  /** Memory of one sign-in; forgotten when the person changes. */
  let uid: string | null = null;
  let lastLocaleWrite: string | null = null;
  let appointmentRequested = false;
  let upkeepQueued = false;
  let upkeepChain: Promise<void> = Promise.resolve();
  let ending = false;
  const readKeys: { clinic: string | null; service: string | null } = { clinic: null, service: null };

  const signedInAs = (who: string) => uid === who && store.getState().session.user?.uid === who;

  async function endSession(notice: LoginNotice): Promise<void> {
    if (ending) return;
    ending = true;
    try {
      await deps.signOut();
      store.getState().setLoginNotice(notice);
      deps.goToLogin();
    } finally {
      ending = false;
    }
  }

  async function writeLocale(who: string): Promise<void> {
    const state = store.getState();
    const record = state.documents.user;
    if (!record?.exists || record.path !== `users/${who}`) return;
    const saved = record.data?.locale;
    const { locale } = state;
    const firstWrite = !isLocale(saved);
    if (!firstWrite && saved === locale) return;
    const key = `${String(record.version)}:${locale}`;
    if (lastLocaleWrite === key) return; // tried for this version already; a new push retries
    lastLocaleWrite = key;
    try {
      if (firstWrite) {
        await realtime.update(
          record.path,
          {
            locale,
            userAgent: deps.userAgent.slice(0, MAX_USER_AGENT_LENGTH),
            version: deps.appVersion.slice(0, MAX_VERSION_LENGTH),
          },
          record.version,
        );
      } else {
        await realtime.update(record.path, { locale });
      }
    } catch (error) {
      // ABORTED: the record changed meanwhile; its next push decides again.
      if (!(error instanceof FunctionsError && error.code === 'aborted')) warn('Could not save the language', error);
    }
  }

  async function createAppointment(who: string): Promise<void> {
    const state = store.getState();
    if (appointmentRequested || state.documents.user?.path !== `users/${who}`) return;
    // A record naming an appointment, open or ended, needs none created (an ended one is
    // offered to start again, by the person's choice).
    if (selectAppointmentId(state) !== null || isStaff(state.session.user)) return;
    appointmentRequested = true;
    try {
      await call('appointment-create', {});
    } catch (error) {
      if (!signedInAs(who)) return;
      await call('sendEmail-admin', {
        userAgent: deps.userAgent.slice(0, MAX_USER_AGENT_LENGTH),
        locale: store.getState().locale,
        route: deps.route(),
        error: reportedError(error),
        context: { step: 'appointment-create' },
      }).catch((reportError: unknown) => {
        warn('Could not report the failed appointment creation', reportError);
      });
      if (signedInAs(who)) await endSession('appointmentFailed');
    }
  }

  /**
   * One pass at a time over the newest state; changes during a pass queue one more. The
   * appointment is asked for only by a pass that no newer state follows, after the locale
   * write it decided on (the appointment takes the record's locale as its e-mail language).
   */
  async function upkeepPass(): Promise<void> {
    const who = uid;
    if (who === null) return;
    await writeLocale(who);
    // Not awaited: a slow creation must not hold up a language change.
    if (!upkeepQueued && signedInAs(who)) void createAppointment(who);
  }

  function scheduleUpkeep(): void {
    if (upkeepQueued) return;
    upkeepQueued = true;
    upkeepChain = upkeepChain.then(async () => {
      upkeepQueued = false;
      await upkeepPass();
    });
  }

  function read(slot: 'clinic' | 'service', key: string, name: string, input: Record<string, string>, id: string) {
    const who = uid;
    call(name, input).then(
      (data) => {
        if (readKeys[slot] !== key || uid !== who) return; // the appointment moved on
        store.getState().setReadDocument(slot, text(isRecord(data) ? data.id : null) ?? id, isRecord(data) ? data : null);
      },
      (error: unknown) => {
        if (readKeys[slot] !== key || uid !== who) return;
        if (error instanceof FunctionsError && error.code === 'not-found') store.getState().setReadDocument(slot, id, null);
        else warn(`Could not read the ${slot}`, error);
      },
    );
  }

  function readCatalog(): void {
    const appointment = store.getState().documents.appointment;
    const data = appointment?.exists ? appointment.data : null;
    const clinicId = text(data?.clinicId);
    const serviceId = text(data?.serviceId);
    if (clinicId !== readKeys.clinic) {
      readKeys.clinic = clinicId;
      if (clinicId !== null) read('clinic', clinicId, 'clinic-read', { id: clinicId }, clinicId);
    }
    const serviceKey = clinicId !== null && serviceId !== null ? `${clinicId}/${serviceId}` : null;
    if (serviceKey !== readKeys.service) {
      readKeys.service = serviceKey;
      if (serviceKey !== null && serviceId !== null && clinicId !== null) {
        read('service', serviceKey, 'service-read', { id: serviceId, clinicId }, serviceId);
      }
    }
  }

  const sync = () => {
    const current = store.getState().session.user?.uid ?? null;
    if (current !== uid) {
      uid = current;
      lastLocaleWrite = null;
      appointmentRequested = false;
      readKeys.clinic = null;
      readKeys.service = null;
    }
    if (uid === null) return;
    scheduleUpkeep();
    readCatalog();
  };

  const sessionEnded = () => {
    if (uid !== null) void endSession('sessionEnded');
  };
  const offConnectError = realtime.onConnectError((error) => {
    if (error.message === 'unauthenticated') sessionEnded();
  });
  const offSession = realtime.onSession((notice) => {
    if (notice.state === 'expired') sessionEnded();
  });
  const offStore = store.subscribe(sync);
  sync();
  return () => {
    offStore();
    offConnectError();
    offSession();
  };
}
