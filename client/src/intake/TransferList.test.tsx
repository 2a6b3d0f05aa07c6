import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../i18n';
import type { OptionDef, OptionValue } from './index';
import { TransferList } from './TransferList';

const options: OptionDef[] = [
  { value: 'C50', label: { ja: '乳がん', en: 'Breast cancer' } },
  { value: 'C56', label: { ja: '卵巣がん', en: 'Ovarian cancer' }, external: true },
  { value: 'C18', label: { ja: '大腸がん', en: 'Colorectal cancer' } },
];

/** The list with its answer held as the step form holds it; every answer given is recorded. */
function renderList(initial: OptionValue[] = []) {
  const answers: OptionValue[][] = [];
  function Holder() {
    const [value, setValue] = useState(initial);
    return (
      <TransferList
        id="conditions"
        label="Conditions"
        required={false}
        options={options}
        value={value}
        onChange={(next) => {
          answers.push(next);
          setValue(next);
        }}
        locale="en"
        invalid={false}
        errorId="conditions-error"
        issue={null}
      />
    );
  }
  render(
    <I18nextProvider i18n={createI18n('en')}>
      <Holder />
    </I18nextProvider>,
  );
  return answers;
}

const entries = (name: string) => Array.from(screen.getByRole('listbox', { name }).querySelectorAll('option'), (option) => option.textContent);

describe('transfer list', () => {
  it('names both lists after the field and shows each entry with its code', () => {
    renderList(['C56']);
    expect(entries('Available: Conditions')).toEqual(['Breast cancer (C50)', 'Colorectal cancer (C18)']);
    expect(entries('Chosen: Conditions')).toEqual(['Ovarian cancer (C56, external)']);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Add selected' }).disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Remove selected' }).disabled).toBe(true);
  });

  it('adds the selected entries with the button, in the order of the option list', async () => {
    const user = userEvent.setup();
    const answers = renderList(['C56']);
    await user.selectOptions(screen.getByRole('listbox', { name: 'Available: Conditions' }), ['Colorectal cancer (C18)', 'Breast cancer (C50)']);
    await user.click(screen.getByRole('button', { name: 'Add selected' }));
    expect(answers).toEqual([['C50', 'C56', 'C18']]);
    expect(entries('Available: Conditions')).toEqual([]);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Add selected' }).disabled).toBe(true);
  });

  it('moves with Enter from either list, and removes with Delete from the chosen one only', async () => {
    const user = userEvent.setup();
    const answers = renderList(['C56']);
    await user.selectOptions(screen.getByRole('listbox', { name: 'Available: Conditions' }), 'Breast cancer (C50)');
    await user.keyboard('{Delete}');
    expect(answers).toEqual([]);
    await user.keyboard('{Enter}');
    expect(answers).toEqual([['C50', 'C56']]);
    await user.selectOptions(screen.getByRole('listbox', { name: 'Chosen: Conditions' }), 'Ovarian cancer (C56, external)');
    await user.keyboard('{Delete}');
    expect(answers.at(-1)).toEqual(['C50']);
    await user.selectOptions(screen.getByRole('listbox', { name: 'Chosen: Conditions' }), 'Breast cancer (C50)');
    await user.keyboard('{Enter}');
    expect(answers.at(-1)).toEqual([]);
  });
});
