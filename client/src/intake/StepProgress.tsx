/** Where the person is: the applicable steps, then the calendar and the review, the current one marked. */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Locale } from '../i18n/locale';
import { applicableSteps, APPOINTMENT_ROUTE, REVIEW_ROUTE, type Scope } from './index';

export function StepProgress({ current, scope, locale }: { current: string; scope: Scope; locale: Locale }) {
  const { t } = useTranslation(['intake', 'routes']);
  const entries = [
    ...applicableSteps(scope).map((step) => ({ route: step.route, title: step.title[locale] })),
    { route: APPOINTMENT_ROUTE, title: t('routes:bookingAppointment.title') },
    { route: REVIEW_ROUTE, title: t('routes:bookingReview.title') },
  ];
  const index = entries.findIndex((entry) => entry.route === current);
  return (
    <nav className="step-progress" aria-label={t('intake:progress.label')}>
      {index >= 0 && (
        <p className="hint">{t('intake:progress.position', { current: index + 1, total: entries.length })}</p>
      )}
      <ol>
        {entries.map((entry, i) => (
          <li key={entry.route} className={i < index ? 'done' : i === index ? 'current' : undefined}>
            <Link to={entry.route} aria-current={i === index ? 'step' : undefined}>
              {entry.title}
            </Link>
          </li>
        ))}
      </ol>
    </nav>
  );
}
