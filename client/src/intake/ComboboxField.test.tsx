import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { definition, type OptionValue } from './index';
import { I18nextProvider } from 'react-i18next';
import { ComboboxField } from './ComboboxField';
import { createI18n } from '../i18n/bundled';

const conditions = definition.options.conditions ?? [];

function Conditions({ initial = [], locale = 'en' }: { initial?: OptionValue[]; locale?: 'en' | 'ja' }) {
  const [value, setValue] = useState<OptionValue[]>(initial);
  return (
    <I18nextProvider i18n={createI18n(locale)}>
      <ComboboxField
        id="conditions"
        label={locale === 'ja' ? '疾患' : 'Conditions'}
        required
        options={conditions}
        value={value}
        onChange={setValue}
        locale={locale}
        invalid={false}
        errorId="conditions-error"
        issue={null}
      />
      <output data-testid="stored">{JSON.stringify(value)}</output>
    </I18nextProvider>
  );
}

const stored = () => JSON.parse(screen.getByTestId('stored').textContent) as unknown;
const chosenNames = () =>
  within(screen.getByRole('grid', { name: 'Chosen: Conditions' }))
    .queryAllByRole('row')
    .map((row) => row.textContent.replace('×', ''));

describe('ComboboxField', () => {
  it('finds conditions by typing, in words only, and adds the one chosen by keyboard', async () => {
    const user = userEvent.setup();
    render(<Conditions />);
    const input = screen.getByRole('combobox', { name: 'Conditions' });
    await user.click(input);
    const list = await screen.findByRole('listbox');
    expect(within(list).getAllByRole('option')).toHaveLength(conditions.length);
    expect(within(list).queryByText(/Q\d/)).toBeNull(); // no codes shown
    await user.type(input, 'cleft');
    expect(within(screen.getByRole('listbox')).getAllByRole('option').map((option) => option.textContent)).toEqual(['Cleft lip', 'Cleft palate']);
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(stored()).toEqual(['Q35']);
    await user.keyboard('{Escape}'); // the list closes; the rest of the page is back
    expect(chosenNames()).toEqual(['Cleft palate']);
    expect((input as HTMLInputElement).value).toBe(''); // ready for the next search
    await user.type(input, 'down');
    await user.keyboard('{ArrowDown}{Enter}');
    // Kept in the order of the list; a chosen one is not offered again.
    expect(stored()).toEqual(['Q90', 'Q35']);
    await user.type(input, 'down');
    expect(screen.getByText('Nothing matches.')).toBeTruthy();
  });

  it('removes a chosen condition with its button and with Delete on the focused tag', async () => {
    const user = userEvent.setup();
    render(<Conditions initial={['Q90', 'F89', 'Q36']} />);
    expect(chosenNames()).toEqual(['Down syndrome', 'Developmental disorder', 'Cleft lip']);
    await user.click(screen.getByRole('button', { name: 'Remove Developmental disorder' }));
    expect(stored()).toEqual(['Q90', 'Q36']);
    // Tab from the input lands on the tags (on the one that took the removed one's place);
    // arrows move between them.
    await user.click(screen.getByRole('combobox', { name: 'Conditions' }));
    await user.keyboard('{Escape}');
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Cleft lip×');
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement?.textContent).toBe('Down syndrome×');
    await user.keyboard('{Delete}');
    expect(stored()).toEqual(['Q36']);
    expect(chosenNames()).toEqual(['Cleft lip']);
    await user.keyboard('{Backspace}');
    expect(stored()).toEqual([]);
    expect(screen.getByText('None chosen yet.')).toBeTruthy();
  });

  it('speaks Japanese without codes or 外表 marks', async () => {
    const user = userEvent.setup();
    render(<Conditions locale="ja" />);
    await user.click(screen.getByRole('combobox', { name: '疾患' }));
    const list = await screen.findByRole('listbox');
    expect(within(list).getByRole('option', { name: '口唇裂' })).toBeTruthy();
    expect(list.textContent).not.toMatch(/Q\d|外表/);
    await user.type(screen.getByRole('combobox', { name: '疾患' }), '口蓋');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(stored()).toEqual(['Q35']);
  });
});
