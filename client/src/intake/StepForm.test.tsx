import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FunctionsError } from '../realtime';
import { useAppStore } from '../store';
import { fakeServer, reply, type FakeServer } from '../test/fakeServer';
import { CONSENT_VERSION, fakeSaves, pushAppointment, seedAppointment } from '../test/intake';
import { contactBasics } from '../test/answers';
import { alice, renderApp } from '../test/renderApp';
import type * as LiveSave from './liveSave';

// Saves as typed are tested in liveSave.test.tsx; here each "Save and continue" is the one
// update, however slow the machine is between keystrokes and the click.
vi.mock('./liveSave', async (importOriginal) => ({ ...(await importOriginal<typeof LiveSave>()), LIVE_SAVE_DELAY_MS: 3_600_000 }));

let view: ReturnType<typeof renderApp> | undefined;
let server: FakeServer;

beforeEach(() => {
  server = fakeServer({ '/functions/appointment-consent': () => reply({ givenAt: '2025-03-05T01:00:00Z' }) });
});
afterEach(() => {
  view?.unmount();
  view = undefined;
});

function open(path: string, locale: 'ja' | 'en' = 'en') {
  view = renderApp(path, { user: alice, locale });
  return view;
}
const location = () => view?.router.state.location.pathname;
const heading = (name: string) => screen.findByRole('heading', { level: 1, name });

const contactStored = {
  contactInfo: {
    ...contactBasics,
    registrant: 1,
    pregnantWomanAttendance: 1,
    hasPrenatalServiceHistory: 0,
  },
};

describe('consent first', () => {
  it('shows the consent text of the service version and no form until the person agrees', async () => {
    const send = fakeSaves();
    const user = userEvent.setup();
    open('/b/contact');
    seedAppointment({ consent: false });
    await heading('Contact information');
    expect(await screen.findByRole('heading', { name: 'How we handle your health and genetic information' })).toBeTruthy();
    expect(screen.getByText(/is used only to prepare and hold your genetic counseling/)).toBeTruthy();
    expect(screen.getByText(`Version ${CONSENT_VERSION}`)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save and continue' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: /Last name/ })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Agree and start answering' }));
    await screen.findByRole('button', { name: 'Save and continue' });
    expect(server.calls('appointment-consent')).toEqual([{ appointmentId: 'a1', version: CONSENT_VERSION }]);
    expect(send).not.toHaveBeenCalled();
  });

  it('shows the consent in Japanese too', async () => {
    open('/b/profile', 'ja');
    seedAppointment({ consent: false, locale: 'ja' });
    expect(await screen.findByRole('heading', { name: '健康・遺伝情報の取り扱いについて' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '同意して回答を始める' })).toBeTruthy();
  });

  it('keeps the gate when the consent call fails, saying why', async () => {
    const user = userEvent.setup();
    server.on('/functions/appointment-consent', () => new Response(JSON.stringify({ error: { status: 'INVALID_ARGUMENT', message: 'x' } }), { status: 400 }));
    open('/b/profile');
    seedAppointment({ consent: false });
    await user.click(await screen.findByRole('button', { name: 'Agree and start answering' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/not valid/);
    expect(screen.queryByRole('button', { name: 'Save and continue' })).toBeNull();
  });
});

describe('save and continue', () => {
  it('sends one update with exactly the changed paths, then goes to the next step', async () => {
    const send = fakeSaves();
    const user = userEvent.setup();
    open('/b/contact');
    seedAppointment({ intake: contactStored });
    const phone = await screen.findByRole('textbox', { name: 'Phone number' });
    expect((phone as HTMLInputElement).value).toBe('03-1234-5678');
    await user.clear(phone);
    await user.type(phone, '090-1111-2222');
    const firstName = screen.getByRole('textbox', { name: 'First name (katakana)' });
    await user.clear(firstName);
    await user.type(firstName, ' ハナ ');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await heading('Profile');
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith('appointments/a1', {
      'intake.contactInfo.phone': '090-1111-2222',
      'intake.contactInfo.firstName': 'ハナ',
    });
    expect(location()).toBe('/b/profile');
  });

  it('asks a person abroad for a Latin name, an international phone and an address, and refuses the same as the server', async () => {
    const send = fakeSaves();
    const user = userEvent.setup();
    // Pasted, one input event per field: typed key by key, each key redraws the 249 countries.
    const enter = async (field: HTMLElement, text: string) => {
      await user.click(field);
      await user.paste(text);
    };
    open('/b/contact');
    seedAppointment({ intake: { contactInfo: { registrant: 1, pregnantWomanAttendance: 1, hasPrenatalServiceHistory: 0 } } });
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Country of residence' }), 'United States');
    expect(screen.queryByRole('combobox', { name: 'Prefecture' })).toBeNull();
    expect(screen.queryByText(/katakana\)/)).toBeNull(); // no "(katakana)" on a name asked in Latin letters
    await enter(screen.getByRole('textbox', { name: 'Last name' }), 'Carter');
    await enter(screen.getByRole('textbox', { name: 'First name' }), 'Zoë');
    await enter(screen.getByRole('textbox', { name: 'E-mail address' }), 'zoe@example.com');
    const phone = screen.getByRole('textbox', { name: 'Phone number' });
    await enter(phone, '555-0134');
    await enter(screen.getByRole('textbox', { name: 'Address' }), '500 Market St, San Francisco, CA 94105');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => {
      expect(phone.getAttribute('aria-invalid')).toBe('true');
    });
    expect(document.getElementById(phone.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(/^Enter a valid phone number/);
    expect(send).not.toHaveBeenCalled();
    await user.clear(phone);
    await enter(phone, '+1 (415) 555-0134');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await heading('Profile');
    expect(send).toHaveBeenCalledWith('appointments/a1', {
      'intake.contactInfo.country': 'US',
      'intake.contactInfo.lastName': 'Carter',
      'intake.contactInfo.firstName': 'Zoë',
      'intake.contactInfo.email': 'zoe@example.com',
      'intake.contactInfo.phone': '+1 (415) 555-0134',
      'intake.contactInfo.address': '500 Market St, San Francisco, CA 94105',
    });
  });

  it('sends nothing when nothing changed, and goes on', async () => {
    const send = fakeSaves();
    const user = userEvent.setup();
    open('/b/contact');
    seedAppointment({ intake: contactStored });
    await user.click(await screen.findByRole('button', { name: 'Save and continue' }));
    await heading('Profile');
    expect(send).not.toHaveBeenCalled();
  });

  it('says *Required at each empty required field, focuses the first, and sends nothing', async () => {
    const send = fakeSaves();
    const user = userEvent.setup();
    open('/b/contact');
    seedAppointment();
    await user.click(await screen.findByRole('button', { name: 'Save and continue' }));
    const country = screen.getByRole('combobox', { name: 'Country of residence' }); // asked first: the rules follow it
    await waitFor(() => {
      expect(document.activeElement).toBe(country);
    });
    expect(country.getAttribute('aria-invalid')).toBe('true');
    const errorId = country.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(errorId)?.textContent).toBe('*Required');
    expect(screen.getByRole('textbox', { name: 'Last name (katakana)' }).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual(Array(8).fill('*Required'));
    const registrant = screen.getByRole('group', { name: 'Who is registering' });
    expect(within(registrant).getByRole('alert').textContent).toBe('*Required');
    expect(send).not.toHaveBeenCalled();
    expect(location()).toBe('/b/contact');
  });

  it('marks required fields with an asterisk after the label, or after the legend', async () => {
    open('/b/contact');
    seedAppointment();
    const label = await screen.findByText('Last name (katakana)');
    expect(label.tagName).toBe('LABEL');
    expect(label.textContent).toBe('Last name (katakana)'); // the label is the definition's, exactly
    expect(label.nextElementSibling?.className).toBe('required-mark');
    expect(label.nextElementSibling?.textContent).toBe('*');
    expect(screen.getByText('Preferred name (katakana)').nextElementSibling).toBeNull();
    const legend = screen.getByText('Who is registering').closest('legend');
    expect(legend?.querySelector('.required-mark')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Last name (katakana)' }).getAttribute('aria-required')).toBe('true');
  });

  it('applies the rules of the definition, in Japanese too', async () => {
    fakeSaves();
    const user = userEvent.setup();
    open('/b/contact', 'ja');
    seedAppointment({ intake: contactStored, locale: 'ja' });
    const lastName = await screen.findByRole('textbox', { name: '姓(カタカナ)' });
    await user.clear(lastName);
    await user.type(lastName, 'ﾔﾏﾀﾞ');
    const phone = screen.getByRole('textbox', { name: '電話番号' });
    await user.clear(phone);
    await user.type(phone, '03 1234');
    await user.click(screen.getByRole('button', { name: '保存して次へ' }));
    expect(await screen.findByText('カタカナで入力してください。')).toBeTruthy();
    expect(screen.getByText('半角数字(0-9)とハイフン(-)のみを使用してください。')).toBeTruthy();
    // Fixing a field takes its message away at once.
    await user.clear(lastName);
    await user.type(lastName, 'ヤマダ');
    expect(screen.queryByText('カタカナで入力してください。')).toBeNull();
  });

  it.each([
    ['en', 'Use only numbers (0-9) and dashes (-).', 'Save and continue', 'Phone number'],
    ['ja', '半角数字(0-9)とハイフン(-)のみを使用してください。', '保存して次へ', '電話番号'],
  ] as const)('shows a refusal of the server at the named field (%s) and stays', async (locale, message, save, phoneName) => {
    const refusal = new FunctionsError('invalid-argument', 'Invalid input.', {
      fields: { 'intake.contactInfo.phone': 'Use only numbers (0-9) and dashes (-).' },
      codes: { 'intake.contactInfo.phone': 'phone' },
    });
    fakeSaves(() => Promise.reject(refusal));
    const user = userEvent.setup();
    open('/b/contact', locale);
    seedAppointment({ intake: contactStored, locale });
    const phone = await screen.findByRole('textbox', { name: phoneName });
    await user.type(phone, '9');
    await user.click(screen.getByRole('button', { name: save }));
    const alert = await screen.findByText(message);
    expect(alert.getAttribute('role')).toBe('alert');
    expect(phone.getAttribute('aria-describedby')).toBe(alert.id);
    expect(document.activeElement).toBe(phone);
    expect(location()).toBe('/b/contact');
  });

  it('shows the consent message when the server asks for consent', async () => {
    fakeSaves(() =>
      Promise.reject(new FunctionsError('invalid-argument', 'x', { fields: { consent: 'c' }, codes: { consent: 'consentRequired' } })),
    );
    const user = userEvent.setup();
    open('/b/profile');
    seedAppointment();
    await user.type(await screen.findByRole('textbox', { name: "Woman's date of birth" }), '1990-04-01');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect(
      await screen.findByText('Before any answer is saved, please agree to how your health and genetic information is handled.'),
    ).toBeTruthy();
  });
});

describe('fields', () => {
  it('shows the "other" free text when "other" is chosen, requires it, and clears it when not', async () => {
    const send = fakeSaves();
    const user = userEvent.setup();
    open('/b/contact');
    seedAppointment({ intake: contactStored });
    const group = await screen.findByRole('group', { name: 'Who is registering' });
    expect(screen.queryByRole('textbox', { name: 'Who is registering (other)' })).toBeNull();
    await user.click(within(group).getByRole('radio', { name: 'Other' }));
    const other = await screen.findByRole('textbox', { name: 'Who is registering (other)' });
    expect(group.contains(other)).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect(await screen.findByText('*Required')).toBeTruthy();
    await user.type(other, 'Sister');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await heading('Profile');
    expect(send).toHaveBeenCalledWith('appointments/a1', {
      'intake.contactInfo.registrant': 'other',
      'intake.contactInfo.registrantOther': 'Sister',
    });
  });

  it('offers the patient roles of the service and a select with the options of the definition', async () => {
    open('/b/patient');
    seedAppointment({ category: 'pgt' });
    const roles = await screen.findByRole('group', { name: 'Who is filling out this form?' });
    expect(within(roles).getAllByRole('radio').map((radio) => radio.closest('label')?.textContent)).toEqual([
      'Woman having fertility treatment',
      'Man having fertility treatment',
      'Other',
    ]);
  });

  it('sends numbers as numbers, and checks their range', async () => {
    const send = fakeSaves();
    const user = userEvent.setup();
    open('/b/pregnancy-history');
    seedAppointment();
    const wasPregnant = await screen.findByRole('group', { name: 'Have you been pregnant before?' });
    await user.click(within(wasPregnant).getByRole('radio', { name: 'Yes' }));
    const pregnancies = await screen.findByRole('textbox', { name: 'Number of pregnancies' });
    await user.type(pregnancies, '31');
    await user.type(screen.getByRole('textbox', { name: 'Number of births' }), '1');
    const miscarriage = screen.getByRole('group', { name: 'Have you had a miscarriage or stillbirth?' });
    await user.click(within(miscarriage).getByRole('radio', { name: 'No' }));
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect(await screen.findByText('Enter a number from 0 to 30.')).toBeTruthy();
    await user.clear(pregnancies);
    await user.type(pregnancies, '２');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => {
      expect(send).toHaveBeenCalled();
    });
    expect(send.mock.calls[0]?.[1]).toEqual({
      'intake.pregnancyHistory.wasPregnant': 1,
      'intake.pregnancyHistory.numPregnancies': 2,
      'intake.pregnancyHistory.numBirths': 1,
      'intake.pregnancyHistory.hadMiscarriage': 0,
    });
  });

  it('adds and removes family members; each item is checked and sent as a whole list', async () => {
    const send = fakeSaves();
    const user = userEvent.setup();
    open('/b/family');
    seedAppointment();
    await user.click(await screen.findByRole('button', { name: 'Add family member' }));
    const first = await screen.findByRole('group', { name: 'Entry 1' });
    await within(first).findByRole('combobox', { name: 'Conditions' }); // its code loaded
    await user.click(screen.getByRole('button', { name: 'Add family member' }));
    expect(screen.getByRole('group', { name: 'Entry 2' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Remove entry 2' }));
    expect(screen.queryByRole('group', { name: 'Entry 2' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect(within(first).getAllByText('*Required')).toHaveLength(2); // who, and the conditions
    expect(send).not.toHaveBeenCalled();

    await user.selectOptions(within(first).getByRole('combobox', { name: 'Who is it?' }), "The woman's paternal grandfather (her father's father)");
    expect(within(first).queryByRole('radio')).toBeNull(); // the side is not asked again
    const conditions = await within(first).findByRole('combobox', { name: 'Conditions' });
    await user.click(conditions);
    await user.click(await screen.findByRole('option', { name: 'Down syndrome' }));
    await user.type(conditions, 'oth');
    await user.keyboard('{ArrowDown}{Enter}{Escape}');
    const chosen = within(first).getByRole('grid', { name: 'Chosen: Conditions' });
    expect(within(chosen).getAllByRole('row').map((row) => row.textContent)).toEqual(['Down syndrome×', 'Other×']);
    expect(within(first).queryByText(/Q90/)).toBeNull(); // codes are stored, never shown
    const other = within(first).getByRole('textbox', { name: 'Other conditions (separate with commas)' });
    expect(within(first).getByText('Separate several entries with commas.')).toBeTruthy();
    await user.type(other, 'Marfan, Fabry');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => {
      expect(send).toHaveBeenCalledTimes(1);
    });
    expect(send).toHaveBeenCalledWith('appointments/a1', {
      'intake.familyMembers': [{ side: 0, relationship: 9, disorders: ['Q90', 'other'], disordersOther: 'Marfan, Fabry' }],
    });
  });

  it('shows answers saved before "Who is it?" as they were, and sends a child without a side', async () => {
    const send = fakeSaves();
    const user = userEvent.setup();
    open('/b/family');
    seedAppointment({
      intake: {
        familyMembers: [
          { side: 1, relationship: 1, disorders: ['Q90', 'F89'] },
          { relationship: 12, disorders: ['Q36'] },
        ],
      },
    });
    const child = await screen.findByRole('group', { name: 'Entry 1' });
    await within(child).findByRole('combobox', { name: 'Conditions' }); // its code loaded
    const who = within(child).getByRole<HTMLSelectElement>('combobox', { name: 'Who is it?' });
    expect(who.selectedOptions[0]?.textContent).toBe('Son');
    const grandmother = screen.getByRole('group', { name: 'Entry 2' });
    // Saved without its side: shown as saved, and the side asked for.
    const whoElse = within(grandmother).getByRole<HTMLSelectElement>('combobox', { name: 'Who is it?' });
    expect(whoElse.selectedOptions[0]?.textContent).toBe('Maternal grandmother: choose whose family');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect(within(grandmother).getByText('*Required')).toBeTruthy();
    expect(send).not.toHaveBeenCalled();
    await user.selectOptions(whoElse, "The partner's maternal grandmother (their mother's mother)");
    await user.selectOptions(who, 'Daughter');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => {
      expect(send).toHaveBeenCalledTimes(1);
    });
    expect(send).toHaveBeenCalledWith('appointments/a1', {
      'intake.familyMembers': [
        { relationship: 2, disorders: ['Q90', 'F89'] },
        { side: 1, relationship: 12, disorders: ['Q36'] },
      ],
    });
  });

  it('leads a step that does not apply to the service on to the next one that does', async () => {
    open('/b/pregnancy-current');
    seedAppointment({ category: 'cancer' });
    await heading('Your questions and expectations');
    expect(location()).toBe('/b/expectations');
  });

  it('shows the retention notice and the progress of the applicable steps', async () => {
    open('/b/profile');
    seedAppointment({ category: 'cancer' });
    await screen.findByRole('button', { name: 'Save and continue' });
    expect(screen.getByText(/Your answers are kept until the end of today \(clinic time\)/)).toBeTruthy();
    const progress = screen.getByRole('navigation', { name: 'Booking steps' });
    expect(within(progress).getAllByRole('link').map((link) => link.textContent)).toEqual([
      'Health care provider code',
      'Patient information',
      'Contact information',
      'Profile',
      'Family history',
      'Your questions and expectations',
      'Choose a date and time',
      'Review and submit',
    ]);
    expect(within(progress).getByRole('link', { name: 'Profile' }).getAttribute('aria-current')).toBe('step');
    expect(within(progress).getByText('Step 4 of 8')).toBeTruthy();
  });
});

describe('live answers and the connection', () => {
  it("follows another tab's changes where the person has not edited, keeps their own edits", async () => {
    const user = userEvent.setup();
    open('/b/contact');
    seedAppointment({ intake: contactStored });
    const phone = await screen.findByRole('textbox', { name: 'Phone number' });
    await user.clear(phone);
    await user.type(phone, '090-0000-0000');
    pushAppointment({ intake: { contactInfo: { ...contactStored.contactInfo, phone: '011-111-1111', firstName: 'ユキ' } } });
    await waitFor(() => {
      expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'First name (katakana)' }).value).toBe('ユキ');
    });
    expect((phone as HTMLInputElement).value).toBe('090-0000-0000');
  });

  it('says the answers will be sent when back online, then goes on once they are', async () => {
    let deliver: (result: { version: number }) => void = () => undefined;
    fakeSaves(() => new Promise((resolve) => (deliver = resolve)));
    const user = userEvent.setup();
    open('/b/contact');
    seedAppointment({ intake: contactStored });
    await user.type(await screen.findByRole('textbox', { name: 'Phone number' }), '9');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    act(() => {
      useAppStore.getState().setSaveStatus('offline');
    });
    expect(screen.getByRole('status').textContent).toBe(
      'Not sent yet: your answers will be sent automatically when the connection returns. Please keep this page open.',
    );
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Save and continue' }).disabled).toBe(true);
    expect(location()).toBe('/b/contact');
    act(() => {
      useAppStore.getState().setSaveStatus('saved');
      deliver({ version: 2 });
    });
    await heading('Profile');
    expect(screen.getByRole('status').textContent).toBe('Saved');
  });

  it('keeps no answer in browser storage, the address or the console', async () => {
    const log = vi.spyOn(console, 'log');
    const user = userEvent.setup();
    fakeSaves();
    open('/b/contact');
    seedAppointment({ intake: contactStored });
    await user.type(await screen.findByRole('textbox', { name: 'Phone number' }), '7');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await heading('Profile');
    expect(localStorage.length + sessionStorage.length).toBe(0);
    expect(view?.router.state.location.search).toBe('');
    expect(log).not.toHaveBeenCalled();
  });
});
