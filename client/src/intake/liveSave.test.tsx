import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeSaves, pushAppointment, seedAppointment } from '../test/intake';
import { contactBasics } from '../test/answers';
import { alice, renderApp } from '../test/renderApp';

let view: ReturnType<typeof renderApp> | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
});

const contactStored = {
  contactInfo: { ...contactBasics, registrant: 1, pregnantWomanAttendance: 1, hasPrenatalServiceHistory: 0 },
};

/** Whether leaving the page now would make the browser ask first. */
function leavingAsks(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('answers saved as typed', () => {
  it('sends a typed answer a moment after the last keystroke, without "Save and continue"', async () => {
    const send = fakeSaves();
    const user = userEvent.setup();
    view = renderApp('/b/contact', { user: alice, locale: 'en' });
    seedAppointment({ intake: contactStored });
    const phone = await screen.findByRole('textbox', { name: 'Phone number' });
    await user.clear(phone);
    await user.type(phone, '090-1111-2222');
    expect(leavingAsks()).toBe(true);
    await waitFor(
      () => {
        expect(send).toHaveBeenCalledWith('appointments/a1', { 'intake.contactInfo.phone': '090-1111-2222' });
      },
      { timeout: 3_000 },
    );
    pushAppointment({ intake: { contactInfo: { ...contactStored.contactInfo, phone: '090-1111-2222' } } });
    await waitFor(() => {
      expect(leavingAsks()).toBe(false);
    });
    expect(view.router.state.location.pathname).toBe('/b/contact');
  });

  it('keeps an answer with a problem back, shows the problem once the field is left, and warns before leaving', async () => {
    const send = fakeSaves();
    const user = userEvent.setup();
    view = renderApp('/b/contact', { user: alice, locale: 'en' });
    seedAppointment({ intake: contactStored });
    const firstName = await screen.findByRole('textbox', { name: 'First name (katakana)' });
    await user.clear(firstName);
    await user.type(firstName, 'Carter');
    expect(screen.queryByText('Please enter in Katakana.')).toBeNull(); // not while typing
    await user.tab();
    expect(screen.getByText('Please enter in Katakana.')).toBeTruthy();
    expect(firstName.getAttribute('aria-invalid')).toBe('true');
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(send).not.toHaveBeenCalled();
    expect(leavingAsks()).toBe(true);
  });

  it('does not call an empty required field out before "Save and continue"', async () => {
    fakeSaves();
    const user = userEvent.setup();
    view = renderApp('/b/contact', { user: alice, locale: 'en' });
    seedAppointment({ intake: contactStored });
    const firstName = await screen.findByRole('textbox', { name: 'First name (katakana)' });
    await user.clear(firstName);
    await user.tab();
    expect(screen.queryByText('*Required')).toBeNull();
  });
});
