/**
 * The head of the appointment page: who (name and contact), which service, when (in the
 * clinic's zone, and in the viewer's when that differs), which counselor, the status, the
 * payment and a cancellation with its reason.
 */
import { useTranslation } from 'react-i18next';
import { counselorName, fullDay, timeZoneName } from '../../booking/format';
import { zonedIso, zonedMoment } from '../../booking/slots';
import type { Locale } from '../../i18n/locale';
import { isRecord } from '../../isRecord';
import { readablePhone } from '../../intake/phone';
import { RefundState } from '../../booking/RefundState';
import { refundOfPayment } from '../../booking/refund';
import type { StaffAppointment } from './read';

/** The zone this browser shows times in. */
export function viewerZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

function localized(value: unknown, locale: Locale): string | null {
  if (typeof value === 'string' && value !== '') return value;
  if (isRecord(value) && typeof value[locale] === 'string' && value[locale] !== '') return value[locale];
  return null;
}

function stamp(iso: string, locale: Locale, timeZone: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(at);
}

export function AppointmentDetails({
  appointment,
  clinic,
  service,
  locale,
  zone = viewerZone(),
}: {
  appointment: StaffAppointment;
  clinic: Record<string, unknown> | null;
  service: Record<string, unknown> | null;
  locale: Locale;
  /** The viewer's zone (the browser's unless given). */
  zone?: string;
}) {
  const { t } = useTranslation('staff');
  const { contact, date, time } = appointment;
  const clinicZone = appointment.timezone ?? (typeof clinic?.timezone === 'string' ? clinic.timezone : 'Asia/Tokyo');
  let when = t('appointment.noTime');
  let yours: string | null = null;
  if (date !== null && time !== null) {
    when = t('appointment.whenClinic', { day: fullDay(date, locale), time, zone: timeZoneName(clinicZone, locale) });
    const iso = zonedIso(date, time, clinicZone);
    const mine = iso === null ? null : zonedMoment(iso, zone);
    if (mine !== null && (mine.date !== date || mine.time !== time)) {
      yours = t('appointment.whenYours', { time: `${fullDay(mine.date, locale)} ${mine.time}`, zone: timeZoneName(zone, locale) });
    }
  }
  const counselor =
    appointment.counselorId === null
      ? t('board.unassigned')
      : counselorName(appointment.counselorId, locale, clinic, (id) => t('board.counselorFallback', { id }));
  const rows: { key: string; label: string; value: React.ReactNode }[] = [
    { key: 'person', label: t('appointment.person'), value: contact.name ?? t('appointment.noName') },
    { key: 'email', label: t('appointment.accountEmail'), value: contact.email ?? t('appointment.notGiven') },
    { key: 'intakeEmail', label: t('appointment.intakeEmail'), value: contact.intakeEmail ?? t('appointment.notGiven') },
    { key: 'phone', label: t('appointment.phone'), value: contact.phone !== null ? readablePhone(contact.phone) : t('appointment.notGiven') },
    { key: 'service', label: t('appointment.service'), value: localized(service?.name, locale) ?? appointment.serviceId },
    {
      key: 'when',
      label: t('appointment.when'),
      value: (
        <>
          {when}
          {yours !== null && <span className="staff-booking-detail staff-your-time">{yours}</span>}
        </>
      ),
    },
    { key: 'counselor', label: t('appointment.counselor'), value: counselor },
    {
      key: 'status',
      label: t('appointment.status'),
      value: (
        <span className="staff-badge" data-status={appointment.status}>
          {t(`status.${appointment.status}`, { defaultValue: appointment.status })}
        </span>
      ),
    },
    {
      key: 'payment',
      label: t('appointment.payment'),
      value:
        appointment.paymentStatus === null ? (
          t('appointment.noPayment')
        ) : refundOfPayment(appointment.document.payment) !== null ? (
          <RefundState payment={appointment.document.payment} />
        ) : (
          t(`paymentState.${appointment.paymentStatus}`, { defaultValue: appointment.paymentStatus })
        ),
    },
  ];
  const { cancellation } = appointment;
  if (cancellation !== null) {
    const by = cancellation.by === 'clinic' ? t('appointment.by.clinic') : t('appointment.by.person');
    rows.push({
      key: 'cancellation',
      label: t('appointment.cancellation'),
      value: (
        <>
          {t('appointment.cancelledBy', { by, at: cancellation.at === null ? '' : stamp(cancellation.at, locale, clinicZone) })}
          <br />
          {t('appointment.reason', { reason: cancellation.reason ?? t('appointment.notGiven') })}
        </>
      ),
    });
  }
  return (
    <section className="staff-panel" aria-labelledby="appointment-details">
      <h2 id="appointment-details">{t('appointment.detailsTitle')}</h2>
      <dl className="review-rows staff-details">
        {rows.map((row) => (
          <div key={row.key} className="review-row" data-row={row.key}>
            <dt>{row.label}</dt>
            <dd>{row.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
