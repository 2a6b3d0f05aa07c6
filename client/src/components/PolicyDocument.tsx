import type { ReactNode } from 'react';
import { Screen } from './ScreenPlaceholder';

export interface PolicySection {
  id: string;
  heading: string;
  /** Paragraphs separated by a blank line; a block of lines starting with "- " is a list. */
  body: string;
  /** Shown after the body (a link). */
  extra?: ReactNode;
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

/** A long text page (terms of service, privacy policy): title, date, numbered sections. */
export function PolicyDocument({ title, lead, updated, sections }: { title: string; lead: string; updated: string; sections: PolicySection[] }) {
  return (
    <Screen title={title} lead={lead}>
      <div className="policy">
        <p className="hint">{updated}</p>
        {sections.map((section, index) => (
          <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`}>
            <h2 id={`${section.id}-heading`}>
              {index + 1}. {section.heading}
            </h2>
            <Blocks text={section.body} />
            {section.extra}
          </section>
        ))}
      </div>
    </Screen>
  );
}
