import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeServer } from '../test/fakeServer';
import { completeIntake, fakeSaves, pushAppointment, seedAppointment } from '../test/intake';
import { alice, renderApp } from '../test/renderApp';

let view: ReturnType<typeof renderApp> | undefined;
beforeEach(() => {
  fakeServer();
});
afterEach(() => {
  view?.unmount();
  view = undefined;
});

/** A complete cancer-service intake, its family member with an "other" disorder named. */
const complete = {
  ...completeIntake,
  familyMembers: [{ side: 0, relationship: 3, disorders: ['Q90', 'other'], disordersOther: 'Marfan,Fabry' }],
};

const section = (name: string) => screen.getByRole('region', { name });

describe('/b/review', () => {
  it('shows every applicable answer readably, grouped by step, with an edit link to each step', async () => {
    view = renderApp('/b/review', { user: alice });
    seedAppointment({ category: 'cancer', intake: complete, fields: { patientRole: 90 } });
    await screen.findByRole('region', { name: 'Contact information' });
    const contact = within(section('Contact information'));
    expect(contact.getByText('Japan')).toBeTruthy();
    expect(contact.getByText('Other (Sister)')).toBeTruthy();
    expect(contact.queryByText('Will the expectant mother attend?')).toBeNull(); // prenatal only
    expect(within(section('Profile')).getByText('April 1, 1990')).toBeTruthy();
    expect(within(section('Patient information')).getByText('Woman')).toBeTruthy();
    const family = within(section('Family history'));
    expect(family.getByText('Entry 1')).toBeTruthy();
    expect(family.getByText('Who is it?')).toBeTruthy();
    expect(family.getByText("The woman's father")).toBeTruthy(); // whose family, said once
    expect(family.queryByText("Woman's side")).toBeNull();
    expect(family.getByText('Down syndrome, Other (Marfan, Fabry)')).toBeTruthy(); // no codes
    expect(within(section('Your questions and expectations')).getByText('Understand my situation better, Get more information')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Current pregnancy' })).toBeNull();
    const edit = contact.getByRole('link', { name: 'Edit Contact information' });
    expect(edit.textContent).toBe('Edit');
    expect(edit.getAttribute('href')).toBe('/b/contact');
    expect(screen.queryByText('Some information is missing.')).toBeNull();
  });

  it('lists the steps with missing answers, linked', async () => {
    const user = userEvent.setup();
    view = renderApp('/b/review', { user: alice });
    const withoutProfile = Object.fromEntries(Object.entries(complete).filter(([section]) => section !== 'profile'));
    seedAppointment({ category: 'prenatal', intake: withoutProfile });
    const missing = await screen.findByRole('alert');
    expect(within(missing).getByText('Some information is missing.')).toBeTruthy();
    expect(within(missing).getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Patient information', '/b/patient'],
      ['Contact information', '/b/contact'],
      ['Profile', '/b/profile'],
      ['Current pregnancy', '/b/pregnancy-current'],
      ['Pregnancy history', '/b/pregnancy-history'],
      ['Prenatal testing', '/b/prenatal-testing'],
    ]);
    const button = screen.getByRole('button', { name: 'Continue to choose a date and time' });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    await user.click(button);
    expect(document.activeElement).toBe(missing);
    expect(view.router.state.location.pathname).toBe('/b/review');
    await user.click(within(missing).getByRole('link', { name: 'Profile' }));
    await screen.findByRole('heading', { level: 1, name: 'Profile' }, { timeout: 5000 });
  });

  it('says so in Japanese too', async () => {
    view = renderApp('/b/review', { user: alice, locale: 'ja' });
    seedAppointment({ category: 'cancer', intake: {}, locale: 'ja' });
    const missing = await screen.findByRole('alert');
    expect(within(missing).getByText('未入力の項目があります。')).toBeTruthy();
    expect(within(missing).getByRole('link', { name: '連絡先' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '連絡先を編集' }).textContent).toBe('編集');
  });

  it('asks for the terms before going on, saves the agreement, then continues to the calendar', async () => {
    const send = fakeSaves(async () => {
      pushAppointment({ agreedToTerms: true });
      return { version: 2 };
    });
    const user = userEvent.setup();
    view = renderApp('/b/review', { user: alice });
    seedAppointment({ category: 'cancer', intake: complete, fields: { patientRole: 90, agreedToTerms: false } });
    const button = await screen.findByRole('button', { name: 'Continue to choose a date and time' });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    await user.click(button);
    const message = await screen.findByText(
      'To continue with your booking, please read and agree to the terms of service.',
    );
    expect(message.getAttribute('role')).toBe('alert');
    const terms = screen.getByRole('checkbox', { name: 'I agree to the terms of service' });
    expect(document.activeElement).toBe(terms);
    expect(screen.getByRole('link', { name: 'Read the terms of service' }).getAttribute('href')).toBe('/terms');

    await user.click(terms);
    expect(send).toHaveBeenCalledWith('appointments/a1', { agreedToTerms: true });
    await waitFor(() => {
      expect(button.getAttribute('aria-disabled')).toBe('false');
    });
    expect((terms as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByText(/please read and agree to the terms of service/)).toBeNull();
    await user.click(button);
    await screen.findByRole('heading', { level: 1, name: 'Choose a date and time' }, { timeout: 5000 });
  });

  it('shows the terms message in Japanese', async () => {
    const user = userEvent.setup();
    view = renderApp('/b/review', { user: alice, locale: 'ja' });
    seedAppointment({ category: 'cancer', intake: complete, fields: { patientRole: 90 }, locale: 'ja' });
    await user.click(await screen.findByRole('button', { name: '日時の選択へ進む' }));
    expect(await screen.findByText('予約を進めるには、利用規約をご確認のうえ同意してください。')).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: '利用規約に同意します' })).toBeTruthy();
  });
});
