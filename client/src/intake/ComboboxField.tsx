/**
 * Several options chosen from a long list (the conditions of a relative): a searchable combo
 * box (react-aria-components: a text input with a list, by keyboard and screen reader) adds
 * the option picked, and the chosen ones stand under it as tags, each removed with its button
 * or, when focused, with Delete or Backspace. Only the options' words are shown; their codes
 * are what is stored.
 */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Button,
  ComboBox,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Tag,
  TagGroup,
  TagList,
  Text,
  useFilter,
  type Key,
} from 'react-aria-components';
import type { Locale } from '../i18n/locale';
import type { OptionDef, OptionValue } from './index';
import { FieldError, RequiredMark } from '../components/FieldParts';
import './combobox.css';

export interface ComboboxFieldProps {
  id: string;
  label: string;
  required: boolean;
  options: OptionDef[];
  value: OptionValue[];
  onChange: (value: OptionValue[]) => void;
  locale: Locale;
  invalid: boolean;
  errorId: string;
  issue: string | null;
  /** Shown after the chosen tags (the "other" free text). */
  children?: ReactNode;
}

/** An option's key in the lists: its code as text (codes are unique in a list). */
const keyOf = (value: OptionValue) => String(value);

interface Entry {
  id: string;
  name: string;
  option: OptionDef;
}

export function ComboboxField({ id, label, required, options, value, onChange, locale, invalid, errorId, issue, children }: ComboboxFieldProps) {
  const { t } = useTranslation('intake');
  const [text, setText] = useState('');
  const { contains } = useFilter({ sensitivity: 'base' });
  const entries: Entry[] = options.map((option) => ({ id: keyOf(option.value), name: option.label[locale], option }));
  const chosen = entries.filter((entry) => value.some((code) => keyOf(code) === entry.id));
  const shown = entries.filter((entry) => !chosen.includes(entry) && contains(entry.name, text));
  const hintId = `${id}-hint`;

  /** The new answer, in the order of the option list. */
  const answer = (keys: Set<string>) => entries.filter((entry) => keys.has(entry.id)).map((entry) => entry.option.value);
  const add = (key: Key | null) => {
    if (key === null) return;
    onChange(answer(new Set([...chosen.map((entry) => entry.id), String(key)])));
    setText('');
  };
  const remove = (keys: Set<Key>) => {
    onChange(answer(new Set(chosen.map((entry) => entry.id).filter((key) => !keys.has(key)))));
  };

  return (
    <div className="field combobox-field" data-invalid={invalid || undefined}>
      <ComboBox
        className="combobox"
        items={shown}
        value={null}
        onChange={add}
        inputValue={text}
        onInputChange={setText}
        menuTrigger="focus"
        allowsEmptyCollection
        isInvalid={invalid}
        isRequired={required && chosen.length === 0}
        validationBehavior="aria"
        {...(invalid ? { 'aria-describedby': errorId } : {})}
      >
        <div className="label-row">
          <Label>{label}</Label>
          {required && <RequiredMark />}
        </div>
        <Text slot="description" id={hintId} className="hint">
          {t('combobox.hint')}
        </Text>
        <div className="combobox-input">
          <Input id={id} />
          <Button className="combobox-button" aria-label={t('combobox.showAll')}>
            <span aria-hidden="true">▾</span>
          </Button>
        </div>
        <Popover className="combobox-popover" placement="bottom start" offset={4}>
          <ListBox<Entry> className="combobox-list" renderEmptyState={() => <p className="combobox-empty">{t('combobox.noMatch')}</p>}>
            {(entry) => (
              <ListBoxItem id={entry.id} textValue={entry.name} className="combobox-option">
                {entry.name}
              </ListBoxItem>
            )}
          </ListBox>
        </Popover>
      </ComboBox>
      <TagGroup className="combobox-tags" aria-label={t('combobox.chosen', { label })} onRemove={remove}>
        <TagList<Entry> items={chosen} className="combobox-tag-list" renderEmptyState={() => <span className="hint">{t('combobox.noneChosen')}</span>}>
          {(entry) => (
            <Tag id={entry.id} textValue={entry.name} className="combobox-tag">
              <span>{entry.name}</span>
              {/* Named "Remove" + the tag's name by react-aria (aria-labelledby). */}
              <Button slot="remove" className="combobox-remove" aria-label={t('combobox.remove')}>
                <span aria-hidden="true">×</span>
              </Button>
            </Tag>
          )}
        </TagList>
      </TagGroup>
      <FieldError id={errorId} issue={issue} />
      {children}
    </div>
  );
}
