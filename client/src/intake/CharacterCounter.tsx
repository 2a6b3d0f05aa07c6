/**
 * The live count of a long text with a limit ("123 / 2,000"), shown under the field from the
 * start so that nothing moves when typing begins; over the limit it takes the error look and
 * says by how much (not by colour alone). Screen readers hear it without chatter: the field is
 * described by the limit and the count (read on focus), and a polite live region speaks only
 * when the text comes near the limit (the last 10%), goes over it, or comes back within it.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '../i18n/locale';

export interface CharacterCounterProps {
  /** Id of the description the field names in aria-describedby. */
  id: string;
  /** Characters as the server counts them (code points). */
  length: number;
  max: number;
  locale: Locale;
}

/** The part of the limit that counts as near it. */
const NEAR = 0.9;

type Stage = 'within' | 'near' | 'over';

function stageOf(length: number, max: number): Stage {
  if (length > max) return 'over';
  return length >= Math.ceil(max * NEAR) ? 'near' : 'within';
}

export function CharacterCounter({ id, length, max, locale }: CharacterCounterProps) {
  const { t } = useTranslation('intake');
  const number = new Intl.NumberFormat(locale === 'ja' ? 'ja-JP' : 'en-US');
  const count = number.format(length);
  const limit = number.format(max);
  const stage = stageOf(length, max);
  const over = number.format(length - max);
  const remaining = number.format(max - length);
  const [seen, setSeen] = useState<Stage>(stage);
  const [announcement, setAnnouncement] = useState('');
  // Only a change of stage speaks; the numbers of every keystroke stay silent. (State adjusted
  // while rendering, as React recommends for state derived from a change of props.)
  if (seen !== stage) {
    setSeen(stage);
    if (stage === 'over') setAnnouncement(t('counter.over', { over, max: limit }));
    else if (stage === 'near') setAnnouncement(t('counter.near', { remaining }));
    else setAnnouncement(seen === 'over' ? t('counter.within', { max: limit }) : '');
  }

  return (
    <div className="char-counter" data-over={stage === 'over' || undefined}>
      <p className="char-counter-count" aria-hidden="true">
        {t('counter.count', { n: count, max: limit })}
        {stage === 'over' && <span className="char-counter-over">{t('counter.overBy', { over })}</span>}
      </p>
      <span id={id} className="visually-hidden">
        {t('counter.description', { n: count, max: limit })}
      </span>
      <span className="visually-hidden" aria-live="polite">
        {announcement}
      </span>
    </div>
  );
}
