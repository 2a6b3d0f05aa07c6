import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Screen } from './ScreenPlaceholder';

/** A policy's words (screens.json): when it was last updated, and each section's. */
export type PolicyText<S extends string> = { updated: string } & Record<S, { heading: string; body: string }>;

export interface PolicyDocumentProps<S extends string> {
  /** Its route: the title and lead (routes.json), and the prefix of its sections' ids. */
  policy: 'privacy' | 'terms';
  /** The section ids, in order; the one named `contact` ends with the contact form's link. */
  sections: readonly S[];
  text: PolicyText<S>;
  /** Shown after a section's body (a link). */
  extras?: Partial<Record<S, ReactNode>>;
}

function Blocks({ text }: { text: string }) {
  return text.split(/\n\s*\n/).map((block, index) => {
    const lines = block.split('\n').map((line) => line.trim());
    if (lines.every((line) => line.startsWith('- '))) {
      return (
        <ul key={index}>
          {lines.map((line, item) => (
            <li key={item}>{line.slice(2)}</li>
          ))}
        </ul>
      );
    }
    return <p key={index}>{lines.join(' ')}</p>;
  });
}

/**
 * A long text page (terms of service, privacy policy): title, date, numbered sections. Every
 * policy says how to reach the clinic, so that section's link is here rather than in each.
 */
export function PolicyDocument<S extends string>({ policy, sections, text, extras = {} }: PolicyDocumentProps<S>) {
  const { t } = useTranslation(['routes', 'screens']);
  const contactLink = (
    <p>
      <Link to="/contact">{t('screens:policy.contactLink')}</Link>
    </p>
  );
  return (
    <Screen title={t(`routes:${policy}.title`)} lead={t(`routes:${policy}.description`)}>
      <div className="policy">
        <p className="hint">{text.updated}</p>
        {sections.map((section, index) => {
          const id = `${policy}-${section}`;
          return (
            <section key={id} id={id} aria-labelledby={`${id}-heading`}>
              <h2 id={`${id}-heading`}>
                {index + 1}. {text[section].heading}
              </h2>
              <Blocks text={text[section].body} />
              {section === 'contact' ? contactLink : extras[section]}
            </section>
          );
        })}
      </div>
    </Screen>
  );
}
