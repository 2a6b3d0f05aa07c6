import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeServer } from '../test/fakeServer';
import { fakeSaves, seedAppointment } from '../test/intake';
import { alice, renderApp } from '../test/renderApp';

let view: ReturnType<typeof renderApp> | undefined;
beforeEach(() => {
  fakeServer();
});
afterEach(() => {
  view?.unmount();
  view = undefined;
});

const dobName = "Woman's date of birth";

describe('date fields', () => {
  it('shows the stored date localized, long in English and short in Japanese', async () => {
    view = renderApp('/b/profile', { user: alice, locale: 'en' });
    seedAppointment({ intake: { profile: { femaleDob: '1990-04-01' } } });
    expect((await screen.findByRole<HTMLInputElement>('textbox', { name: dobName })).value).toBe('April 1, 1990');
    view.unmount();
    view = renderApp('/b/profile', { user: alice, locale: 'ja' });
    seedAppointment({ intake: { profile: { femaleDob: '1990-04-01' } }, locale: 'ja' });
    expect((await screen.findByRole<HTMLInputElement>('textbox', { name: '女性の生年月日' })).value).toBe('1990/04/01');
  });

  it('reads typed input 1000 ms after the last keystroke', async () => {
    fakeSaves();
    const user = userEvent.setup();
    view = renderApp('/b/profile', { user: alice });
    seedAppointment();
    await user.click(await screen.findByRole('button', { name: 'Save and continue' }));
    const input = screen.getByRole('textbox', { name: dobName });
    expect(await screen.findByText('*Required')).toBeTruthy();
    await user.type(input, '1990/4/1');
    const typedAt = Date.now();
    expect(screen.getByText('*Required')).toBeTruthy(); // not read yet
    await waitFor(
      () => {
        expect(screen.queryByText('*Required')).toBeNull();
      },
      { timeout: 2000 },
    );
    expect(Date.now() - typedAt).toBeGreaterThanOrEqual(900);
    expect((input as HTMLInputElement).value).toBe('1990/4/1'); // as typed while the field has focus
    await user.tab();
    expect((input as HTMLInputElement).value).toBe('April 1, 1990');
  });

  it('sends the date as an ISO date, and says when a date is outside its bounds', async () => {
    const send = fakeSaves();
    const user = userEvent.setup();
    view = renderApp('/b/profile', { user: alice });
    seedAppointment();
    const input = await screen.findByRole('textbox', { name: dobName });
    await user.type(input, '1939-12-31');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect(await screen.findByText('The date must be after January 1, 1940.')).toBeTruthy();
    await user.clear(input);
    await user.type(input, '1990年4月1日');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => {
      expect(send).toHaveBeenCalledWith('appointments/a1', { 'intake.profile.femaleDob': '1990-04-01' });
    });
  });

  it('does not read a text of more than 1000 characters as a date', async () => {
    fakeSaves();
    const user = userEvent.setup();
    view = renderApp('/b/profile', { user: alice });
    seedAppointment();
    await user.click(await screen.findByRole('textbox', { name: dobName }));
    await user.paste(`1990-04-01${' '.repeat(991)}`);
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect(await screen.findByText('Enter a valid date.')).toBeTruthy();
  });

  it('offers a calendar that refuses disabled dates and keeps the previous value', async () => {
    const user = userEvent.setup();
    view = renderApp('/b/profile', { user: alice });
    seedAppointment({ intake: { profile: { femaleDob: '1940-01-10' } } });
    const input = await screen.findByRole<HTMLInputElement>('textbox', { name: dobName });
    await user.click(screen.getByRole('button', { name: 'Calendar', description: dobName }));
    const grid = screen.getByRole('grid');
    const firstOfJanuary = within(grid).getByRole('button', { name: /January 1, 1940 \(not available\)/ });
    expect(firstOfJanuary.getAttribute('aria-disabled')).toBe('true');
    await user.click(firstOfJanuary);
    expect(input.value).toBe('January 10, 1940');
    expect(screen.getByRole('grid')).toBeTruthy(); // still open: nothing was chosen
    await user.click(within(grid).getByRole('button', { name: /January 2, 1940$/ }));
    expect(input.value).toBe('January 2, 1940');
    expect(screen.queryByRole('grid')).toBeNull();
    expect(document.activeElement).toBe(input);
  });

  it('moves through the calendar by keyboard', async () => {
    const user = userEvent.setup();
    view = renderApp('/b/profile', { user: alice });
    seedAppointment({ intake: { profile: { femaleDob: '1990-04-10' } } });
    const input = await screen.findByRole<HTMLInputElement>('textbox', { name: dobName });
    await user.click(screen.getByRole('button', { name: 'Calendar', description: dobName }));
    const selected = within(screen.getByRole('grid')).getByRole('button', { name: /April 10, 1990/ });
    selected.focus();
    await user.keyboard('{ArrowRight}{ArrowDown}');
    expect(document.activeElement?.getAttribute('aria-label')).toMatch(/April 18, 1990/);
    await user.keyboard('{Enter}');
    expect(input.value).toBe('April 18, 1990');
  });
});
