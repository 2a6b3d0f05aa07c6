import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeServer, refuse, reply } from '../test/fakeServer';
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

describe('/b/clinic: the health care provider code', () => {
  it('takes the code of ?id= when none is saved, and saves it', async () => {
    const send = fakeSaves();
    const user = userEvent.setup();
    view = renderApp('/b/?id=AB12', { user: alice });
    seedAppointment();
    expect((await screen.findByRole<HTMLInputElement>('textbox', { name: 'Provider code (4 characters)' })).value).toBe('AB12');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await screen.findByRole('heading', { level: 1, name: 'Patient information' });
    expect(send).toHaveBeenCalledWith('appointments/a1', { 'intake.healthCareProvider.code': 'AB12' });
  });

  it.each([
    ['ABCDE', 'Please check the code: it has 4 letters or digits.'],
    ['AB1', 'Please check the code: it has 4 letters or digits.'],
    ['ＡＢ１', 'Please check the code: it has 4 letters or digits.'], // full-width is read half-width: still 3 characters
  ])('refuses %j: "%s"', async (code, message) => {
    const send = fakeSaves();
    const user = userEvent.setup();
    view = renderApp('/b/clinic', { user: alice });
    seedAppointment();
    await user.type(await screen.findByRole('textbox', { name: 'Provider code (4 characters)' }), code);
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(send).not.toHaveBeenCalled();
  });

  it('takes a code typed in full-width letters and digits, and saves it half-width', async () => {
    const send = fakeSaves();
    const user = userEvent.setup();
    view = renderApp('/b/clinic', { user: alice });
    seedAppointment();
    await user.type(await screen.findByRole('textbox', { name: 'Provider code (4 characters)' }), 'ＡＢ１２');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await screen.findByRole('heading', { level: 1, name: 'Patient information' });
    expect(send).toHaveBeenCalledWith('appointments/a1', { 'intake.healthCareProvider.code': 'AB12' });
  });

  it('keeps the case of a code', async () => {
    const send = fakeSaves();
    const user = userEvent.setup();
    view = renderApp('/b/clinic', { user: alice });
    seedAppointment();
    await user.type(await screen.findByRole('textbox', { name: 'Provider code (4 characters)' }), 'aB3d');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => {
      expect(send).toHaveBeenCalledWith('appointments/a1', { 'intake.healthCareProvider.code': 'aB3d' });
    });
  });

  it('names the institution of a code the clinic has, before the person goes on', async () => {
    const server = fakeServer({ '/functions/providerCode-check': () => reply({ name: 'デモ産婦人科クリニック' }) });
    const send = fakeSaves();
    const user = userEvent.setup();
    view = renderApp('/b/clinic', { user: alice });
    seedAppointment();
    await user.type(await screen.findByRole('textbox', { name: 'Provider code (4 characters)' }), 'DEMO');
    expect(await screen.findByText('Referring institution: デモ産婦人科クリニック')).toBeTruthy();
    expect(server.calls('providerCode-check')).toEqual([{ clinicId: 'demo-clinic', code: 'DEMO' }]);
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await screen.findByRole('heading', { level: 1, name: 'Patient information' });
    expect(send).toHaveBeenCalledWith('appointments/a1', { 'intake.healthCareProvider.code': 'DEMO' });
  });

  it('refuses a code the clinic does not have with "Invalid code.", in both languages', async () => {
    const unknown = () =>
      refuse('INVALID_ARGUMENT', 400, 'Invalid code.', { fields: { code: 'Invalid code.' }, codes: { code: 'providerCodeUnknown' } });
    fakeServer({ '/functions/providerCode-check': unknown });
    const user = userEvent.setup();
    view = renderApp('/b/clinic', { user: alice });
    seedAppointment();
    await user.type(await screen.findByRole('textbox', { name: 'Provider code (4 characters)' }), 'ZZZZ');
    expect(await screen.findByText('Invalid code.')).toBeTruthy();
    expect(screen.queryByText(/Referring institution/)).toBeNull();
    view.unmount();
    fakeServer({ '/functions/providerCode-check': unknown });
    view = renderApp('/b/clinic', { user: alice, locale: 'ja' });
    seedAppointment({ locale: 'ja' });
    await user.type(await screen.findByRole('textbox', { name: '医療機関コード（4文字）' }), 'ZZZZ');
    expect(await screen.findByText('コードが正しくありません。お手元のコードをもう一度ご確認ください。')).toBeTruthy();
  });

  it('offers to continue without a code, in both languages', async () => {
    const user = userEvent.setup();
    view = renderApp('/b/clinic', { user: alice, locale: 'ja' });
    seedAppointment({ locale: 'ja' });
    expect(await screen.findByRole('link', { name: 'コードなしで進む' })).toBeTruthy();
    view.unmount();
    view = renderApp('/b/clinic', { user: alice });
    seedAppointment();
    const link = await screen.findByRole('link', { name: 'Continue without a code' });
    expect(link.getAttribute('href')).toBe('/b/patient');
    await user.click(link);
    await screen.findByRole('heading', { level: 1, name: 'Patient information' });
  });

  it('offers it only once consent is given, so the consent is shown once', async () => {
    view = renderApp('/b/clinic', { user: alice });
    seedAppointment({ consent: false });
    expect(await screen.findByRole('button', { name: 'Agree and start answering' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Continue without a code' })).toBeNull();

    fakeServer({ '/functions/appointment-consent': () => reply({ consented: true }) });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Agree and start answering' }));
    expect(await screen.findByRole('link', { name: 'Continue without a code' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Agree and start answering' })).toBeNull();
  });
});
