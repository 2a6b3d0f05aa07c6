import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useAppStore } from '../store';
import { fakeServer, refuse, reply } from '../test/fakeServer';
import { alice, renderApp } from '../test/renderApp';

let view: ReturnType<typeof renderApp> | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
});

async function openContact(path: string, options: Parameters<typeof renderApp>[1] = {}) {
  view = renderApp(path, options);
  await screen.findByRole('heading', { level: 1 });
  return userEvent.setup();
}

const field = (name: string) => screen.getByRole('textbox', { name });

describe('contact form', () => {
  it.each([
    ['en', 'Send message', 'Some of the fields are incomplete.', '*Required', 'Invalid email address.', ['Name', 'E-mail address', 'Message']],
    ['ja', '送信する', '入力が完了していない項目があります。', '*必須です', 'メールアドレスの形式が正しくありません。', ['お名前', 'メールアドレス', 'お問い合わせ内容']],
  ] as const)('says "incomplete" with each field\'s problem, without asking the server (%s)', async (locale, submit, incomplete, required, invalidEmail, labels) => {
    const server = fakeServer();
    const user = await openContact('/contact', { locale });
    const [name, email, message] = labels;
    await user.type(field(email), 'hanako@example');
    await user.click(screen.getByRole('button', { name: submit }));

    const alerts = (await screen.findAllByRole('alert')).map((a) => a.textContent);
    expect(alerts).toEqual([required, invalidEmail, required, incomplete]);
    expect(field(name).getAttribute('aria-invalid')).toBe('true');
    expect(field(name).getAttribute('aria-describedby')).toBe('contact-name-error');
    expect(document.activeElement).toBe(field(name));
    expect(field(message).getAttribute('aria-required')).toBe('true');
    expect(server.calls('contact-send')).toEqual([]);

    // Completed, the messages go away.
    await user.type(field(name), 'Hanako');
    await user.type(field(email), '.jp');
    await user.type(field(message), 'Hello');
    expect(screen.queryAllByRole('alert')).toEqual([]);
  });

  it('prefills name and e-mail from the query, sends the appointment id, then shows the confirmation', async () => {
    const server = fakeServer({ '/functions/contact-send': () => reply({ sent: true }) });
    const user = await openContact('/contact?id=appt-1&name=Hanako%20Yamada&email=hanako%40example.com');
    expect((field('Name') as HTMLInputElement).value).toBe('Hanako Yamada');
    expect((field('E-mail address') as HTMLInputElement).value).toBe('hanako@example.com');
    expect(screen.getByText('Your message will be linked to your booking (reference appt-1).')).toBeTruthy();
    await user.type(field('Message'), '  I would like to change my appointment.  ');
    await user.click(screen.getByRole('button', { name: 'Send message' }));

    await screen.findByRole('heading', { level: 1, name: 'Message sent' });
    expect(view?.router.state.location.pathname).toBe('/contact-confirmation');
    expect(screen.getByRole('timer').textContent).toBe('Returning to the start page in 20 seconds.');
    // The answer time is the contract's, as the acknowledgement mail says it.
    expect(screen.getByText('We will reply to the e-mail address you gave, usually within 2 business days.')).toBeTruthy();
    expect(server.calls('contact-send')).toEqual([
      {
        name: 'Hanako Yamada',
        email: 'hanako@example.com',
        message: 'I would like to change my appointment.',
        locale: 'en',
        appointmentId: 'appt-1',
      },
    ]);
    // Sent once: no automatic retry.
    expect(server.requests.filter((r) => r.url === '/functions/contact-send')).toHaveLength(1);
  });

  it('signed in: sends the clinic of the appointment and prefills the e-mail address', async () => {
    const server = fakeServer({ '/functions/contact-send': () => reply({ sent: true }) });
    const user = await openContact('/contact', { user: alice });
    useAppStore.getState().receiveSnapshot({ path: 'users/u1', exists: true, data: { appointmentId: 'a1' }, version: 1 });
    useAppStore
      .getState()
      .receiveSnapshot({ path: 'appointments/a1', exists: true, data: { clinicId: 'demo-clinic', serviceId: 'pgt' }, version: 1 });
    expect((field('E-mail address') as HTMLInputElement).value).toBe('alice@example.com');
    await user.type(field('Name'), 'Alice');
    await user.type(field('Message'), 'A question');
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    await screen.findByRole('heading', { level: 1, name: 'Message sent' });
    expect(server.calls('contact-send')).toEqual([
      { name: 'Alice', email: 'alice@example.com', message: 'A question', locale: 'en', clinicId: 'demo-clinic' },
    ]);
  });

  it("shows the server's refusal of fields the same way, in the person's language", async () => {
    fakeServer({
      '/functions/contact-send': () =>
        refuse('INVALID_ARGUMENT', 400, 'Some of the fields are incomplete.', {
          fields: { email: 'Some of the fields are incomplete.' },
          codes: { email: 'email' },
        }),
    });
    const user = await openContact('/contact?name=花子&email=hanako@example.com', { locale: 'ja' });
    await user.type(field('お問い合わせ内容'), 'こんにちは');
    await user.click(screen.getByRole('button', { name: '送信する' }));
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((a) => a.textContent)).toEqual(['メールアドレスの形式が正しくありません。', '入力が完了していない項目があります。']);
    expect(document.activeElement).toBe(field('メールアドレス'));
    expect(view?.router.state.location.pathname).toBe('/contact');
  });

  it('names a field with characters that cannot be used, in the person\'s language', async () => {
    fakeServer({
      '/functions/contact-send': () =>
        refuse('INVALID_ARGUMENT', 400, 'The request is not valid.', {
          fields: { name: 'Contains characters that cannot be used.' },
          codes: { name: 'controlCharacters' },
        }),
    });
    const user = await openContact('/contact?name=花子&email=hanako@example.com', { locale: 'ja' });
    await user.type(field('お問い合わせ内容'), 'こんにちは');
    await user.click(screen.getByRole('button', { name: '送信する' }));
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((a) => a.textContent)).toEqual(['使用できない文字（制御文字、または1行の欄での改行）が含まれています。']);
    expect(document.activeElement).toBe(field('お名前'));
  });

  it('says so when too many messages were sent', async () => {
    fakeServer({ '/functions/contact-send': () => refuse('RESOURCE_EXHAUSTED', 429, 'Too many messages.') });
    const user = await openContact('/contact?name=Hanako&email=hanako@example.com');
    await user.type(field('Message'), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    const form = screen.getByRole('button', { name: 'Send message' }).closest('form');
    expect(form).not.toBeNull();
    expect((await within(form as HTMLElement).findByRole('alert')).textContent).toBe(
      'Too many requests. Please wait a moment and try again.',
    );
  });
});
