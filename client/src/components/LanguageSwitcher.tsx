import { useTranslation } from 'react-i18next';
import { locales } from '../i18n/locale';
import { useAppStore } from '../store';
import { selectLocale } from '../store/selectors';

/** Two buttons, ja and en; the active one is pressed. Each name is shown in its own language. */
export function LanguageSwitcher() {
  const { t } = useTranslation();
  const locale = useAppStore(selectLocale);
  const setLocale = useAppStore((state) => state.setLocale);
  return (
    <div className="language-switcher" role="group" aria-label={t('language.label')}>
      {locales.map((option) => (
        <button
          key={option}
          type="button"
          lang={option}
          aria-pressed={option === locale}
          onClick={() => {
            setLocale(option);
          }}
        >
          {t(`language.${option}`)}
        </button>
      ))}
    </div>
  );
}
