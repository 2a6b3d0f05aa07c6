import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { EMAIL_FOR_SIGN_IN_KEY } from '../auth/emailLink';
import { useAppStore } from '../store';
import { fakeServer, refuse, reply } from '../test/fakeServer';
import { renderApp } from '../test/renderApp';

let view: ReturnType<typeof renderApp> | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
});

const demoClinic = { id: 'demo-clinic', name: { ja: 'デモクリニック', en: 'Demo Clinic' }, timezone: 'Asia/Tokyo' };

async function openLogin(path: string, locale: 'ja' | 'en' = 'en') {
  view = renderApp(path, { locale });
  await screen.findByRole('heading', { level: 1 });
  return userEvent.setup();
}

describe('login screen: the e-mail rule', () => {
  it.each([
    ['en', 'E-mail address', 'Send sign-in link', 'Invalid email address.'],
    ['ja', 'メールアドレス', 'ログイン用リンクを送信', 'メールアドレスの形式が正しくありません。'],
  ] as const)('refuses a malformed address in %s without asking the server', async (locale, label, submit, message) => {
    const server = fakeServer();
    const user = await openLogin('/', locale);
    await user.type(screen.getByLabelText(label), 'hanako@example');
    await user.click(screen.getByRole('button', { name: submit }));
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(screen.getByLabelText(label).getAttribute('aria-invalid')).toBe('true');
    expect(server.calls('sendEmail-authLink')).toEqual([]);

    // Corrected, the message goes away at once.
    await user.type(screen.getByLabelText(label), '.jp');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('login screen: an empty field', () => {
  it.each([
    ['en', 'E-mail address', 'Send sign-in link', 'Enter your e-mail address.'],
    ['ja', 'メールアドレス', 'ログイン用リンクを送信', 'メールアドレスを入力してください。'],
  ] as const)('asks for an address (%s) instead of calling it invalid', async (locale, label, submit, message) => {
    const server = fakeServer();
    const user = await openLogin('/', locale);
    await user.type(screen.getByLabelText(label), '   ');
    await user.click(screen.getByRole('button', { name: submit }));
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(server.calls('sendEmail-authLink')).toEqual([]);

    // Something typed that is not an address: the rule's own message.
    await user.type(screen.getByLabelText(label), 'hanako');
    expect((await screen.findByRole('alert')).textContent).not.toBe(message);
  });
});

describe('login screen: asking for a link', () => {
  it('sends the address with the locale, clinicId and serviceId, then says to check the inbox', async () => {
    const server = fakeServer({ '/functions/sendEmail-authLink': () => reply({ sent: true }) });
    const user = await openLogin('/?locale=en&clinicId=demo-clinic&serviceId=pgt');
    await user.type(screen.getByLabelText('E-mail address'), '  hanako@example.com ');
    await user.click(screen.getByRole('button', { name: 'Send sign-in link' }));

    await screen.findByRole('heading', { name: 'Check your inbox' });
    expect(screen.getByRole('status').textContent).toBe(
      'We sent a sign-in link to hanako@example.com. Open the link in that e-mail to sign in.',
    );
    expect(server.calls('sendEmail-authLink')).toEqual([
      { email: 'hanako@example.com', locale: 'en', clinicId: 'demo-clinic', serviceId: 'pgt' },
    ]);
    expect(localStorage.getItem(EMAIL_FOR_SIGN_IN_KEY)).toBe('hanako@example.com');
  });

  it('asks in Japanese when the interface is Japanese, and leaves out what the page does not name', async () => {
    const server = fakeServer({ '/functions/sendEmail-authLink': () => reply({ sent: true }) });
    const user = await openLogin('/?serviceId=prenatal', 'ja');
    await user.type(screen.getByLabelText('メールアドレス'), 'hanako@example.com');
    await user.click(screen.getByRole('button', { name: 'ログイン用リンクを送信' }));
    await screen.findByRole('heading', { name: 'メールをご確認ください' });
    expect(screen.getByRole('status').textContent).toBe(
      'hanako@example.com 宛てにログイン用のリンクをお送りしました。メール内のリンクを開いてログインしてください。',
    );
    expect(server.calls('sendEmail-authLink')).toEqual([{ email: 'hanako@example.com', locale: 'ja', serviceId: 'prenatal' }]);
  });

  it('sends again to the same address, or goes back to the field to change it', async () => {
    const server = fakeServer({ '/functions/sendEmail-authLink': () => reply({ sent: true }) });
    const user = await openLogin('/');
    await user.type(screen.getByLabelText('E-mail address'), 'hanako@example.com');
    await user.click(screen.getByRole('button', { name: 'Send sign-in link' }));
    await user.click(await screen.findByRole('button', { name: 'Send the link again' }));
    await waitFor(() => {
      expect(screen.getByRole('status').textContent).toBe(
        'We sent a new sign-in link to hanako@example.com. Open the link in that e-mail to sign in.',
      );
    });
    expect(server.calls('sendEmail-authLink')).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Use a different e-mail address' }));
    const field = screen.getByLabelText<HTMLInputElement>('E-mail address');
    expect(field.value).toBe('hanako@example.com');
    await user.clear(field);
    await user.type(field, 'taro@example.com');
    await user.click(screen.getByRole('button', { name: 'Send sign-in link' }));
    await screen.findByText('We sent a sign-in link to taro@example.com. Open the link in that e-mail to sign in.');
    expect(localStorage.getItem(EMAIL_FOR_SIGN_IN_KEY)).toBe('taro@example.com');
  });

  it('says to wait a few minutes when too many links were asked for, without retrying', async () => {
    const server = fakeServer({
      '/functions/sendEmail-authLink': () => refuse('RESOURCE_EXHAUSTED', 429, 'Too many requests.'),
    });
    const user = await openLogin('/');
    await user.type(screen.getByLabelText('E-mail address'), 'hanako@example.com');
    await user.click(screen.getByRole('button', { name: 'Send sign-in link' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many sign-in links have been requested. Please wait a few minutes and try again.',
    );
    expect(server.calls('sendEmail-authLink')).toHaveLength(1);
    expect(screen.queryByRole('heading', { name: 'Check your inbox' })).toBeNull();
    expect(localStorage.getItem(EMAIL_FOR_SIGN_IN_KEY)).toBeNull();
  });

  it('shows the same in Japanese', async () => {
    fakeServer({ '/functions/sendEmail-authLink': () => refuse('RESOURCE_EXHAUSTED', 429, 'Too many requests.') });
    const user = await openLogin('/', 'ja');
    await user.type(screen.getByLabelText('メールアドレス'), 'hanako@example.com');
    await user.click(screen.getByRole('button', { name: 'ログイン用リンクを送信' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'ログイン用リンクの送信回数が上限に達しました。数分待ってから、もう一度お試しください。',
    );
  });

  it('shows the server refusing the address as the e-mail rule, and other errors by their code', async () => {
    const server = fakeServer({
      '/functions/sendEmail-authLink': () =>
        refuse('INVALID_ARGUMENT', 400, 'Invalid email address.', { fields: { email: 'Invalid email address.' } }),
    });
    const user = await openLogin('/');
    await user.type(screen.getByLabelText('E-mail address'), 'hanako@example.com');
    await user.click(screen.getByRole('button', { name: 'Send sign-in link' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid email address.');

    server.on('/functions/sendEmail-authLink', () => refuse('NOT_FOUND', 404, 'No such clinic.'));
    await user.click(screen.getByRole('button', { name: 'Send sign-in link' }));
    await screen.findByText(
      'The clinic or service in the address of this page could not be found. Please check the link you were given.',
    );
  });
});

describe('login screen: the FAQ and back', () => {
  it('keeps "check your inbox" and its address when the person comes back from the FAQ', async () => {
    fakeServer({ '/functions/sendEmail-authLink': () => reply({ sent: true }) });
    const user = await openLogin('/?clinicId=demo-clinic', 'ja');
    await user.type(screen.getByLabelText('メールアドレス'), 'hanako@example.com');
    await user.click(screen.getByRole('button', { name: 'ログイン用リンクを送信' }));
    await screen.findByRole('heading', { name: 'メールをご確認ください' });

    await user.click(screen.getByRole('link', { name: 'メールが届かない場合' }));
    await screen.findByRole('heading', { level: 1, name: 'よくあるご質問' });
    await view?.router.navigate(-1);

    await screen.findByRole('heading', { name: 'メールをご確認ください' });
    expect(screen.getByRole('status').textContent).toContain('hanako@example.com');
    expect(`${view?.router.state.location.pathname}${view?.router.state.location.search}`).toBe('/?clinicId=demo-clinic');

    // "Use another address" still goes back to the field, the address ready to change.
    await user.click(screen.getByRole('button', { name: '別のメールアドレスを使う' }));
    expect(screen.getByLabelText<HTMLInputElement>('メールアドレス').value).toBe('hanako@example.com');
  });
});

describe('login screen: mobile-carrier addresses', () => {
  it('warns about carrier addresses and links to the FAQ on receiving mail', async () => {
    fakeServer();
    const user = await openLogin('/');
    const field = screen.getByLabelText('E-mail address');
    await user.type(field, 'hanako@gmail.com');
    expect(screen.queryByText(/mobile carriers may block/)).toBeNull();
    await user.clear(field);
    await user.type(field, 'hanako@docomo.ne.jp');
    const notice = screen.getByText(/E-mail addresses of mobile carriers may block our e-mails/);
    expect(within(notice).getByRole('link', { name: 'Not receiving our e-mails? (FAQ)' }).getAttribute('href')).toBe(
      '/faq#receiving-email',
    );
  });

  it('opens the FAQ at its answer on receiving mail', async () => {
    fakeServer();
    const user = await openLogin('/', 'ja');
    await user.type(screen.getByLabelText('メールアドレス'), 'hanako@ezweb.ne.jp');
    await user.click(screen.getByRole('link', { name: 'メールが届かない場合（よくあるご質問）' }));
    await screen.findByRole('heading', { level: 1, name: 'よくあるご質問' });
    expect(screen.getByRole('heading', { level: 2, name: 'ログイン用のメールが届きません' }).closest('section')?.id).toBe(
      'receiving-email',
    );
    expect(view?.router.state.location.hash).toBe('#receiving-email');
  });

  it.each([
    ['ja', /当サービスのメールの送信元ドメイン（mail\.clinic\.example\.jp）/],
    ['en', /the domain our e-mails are sent from \(mail\.clinic\.example\.jp\)/],
  ] as const)('names the domain our mails come from (site-read) in the FAQ (%s), not the page host', async (locale, text) => {
    fakeServer({ '/functions/site-read': () => reply({ mailSenderDomain: 'mail.clinic.example.jp' }) });
    view = renderApp('/faq', { locale });
    expect((await screen.findByText(text)).textContent).not.toContain(window.location.hostname);
  });

  it('still tells carrier users to allow PC e-mails when the domain cannot be read', async () => {
    fakeServer();
    view = renderApp('/faq');
    expect((await screen.findByText(/allow e-mails from PC e-mail addresses/)).textContent).not.toMatch(/sent from|localhost/);
  });
});

describe('clinic login screen', () => {
  it("names the clinic in the interface's language and asks for the link for it", async () => {
    const server = fakeServer({
      '/functions/clinic-read': () => reply(demoClinic),
      '/functions/sendEmail-authLink': () => reply({ sent: true }),
    });
    const user = await openLogin('/c/demo-clinic?serviceId=pgt');
    await screen.findByRole('heading', { level: 1, name: 'Book with Demo Clinic' });
    // Named once: the title only (it was in the title, the lead and a line of its own).
    expect(screen.getAllByText(/Demo Clinic/)).toHaveLength(1);
    expect(server.calls('clinic-read')).toContainEqual({ id: 'demo-clinic' });
    await user.type(screen.getByLabelText('E-mail address'), 'hanako@example.com');
    await user.click(screen.getByRole('button', { name: 'Send sign-in link' }));
    await screen.findByRole('heading', { name: 'Check your inbox' });
    expect(server.calls('sendEmail-authLink')).toEqual([
      { email: 'hanako@example.com', locale: 'en', clinicId: 'demo-clinic', serviceId: 'pgt' },
    ]);
    await user.click(within(screen.getByRole('group', { name: 'Language' })).getByRole('button', { name: '日本語' }));
    await screen.findByRole('heading', { level: 1, name: 'デモクリニックのご予約' });
    expect(screen.getAllByText(/デモクリニック/)).toHaveLength(1);
  });

  it.each([
    ['/pgt', 'en', 'Service: PGT results counseling', { id: 'pgt' }],
    ['/prenatal', 'ja', 'サービス：出生前検査の遺伝カウンセリング', { id: 'prenatal' }],
    ['/c/demo-clinic?serviceId=prenatal', 'en', 'Service: Prenatal testing counseling', { id: 'prenatal', clinicId: 'demo-clinic' }],
  ] as const)('names the service of %s (%s)', async (path, locale, line, asked) => {
    const server = fakeServer({
      '/functions/clinic-read': () => reply(demoClinic),
      '/functions/service-read': () =>
        reply(
          asked.id === 'pgt'
            ? { id: 'pgt-post', name: { ja: '着床前検査(PGT)結果の遺伝カウンセリング', en: 'PGT results counseling' } }
            : { id: 'prenatal-b2c', name: { ja: '出生前検査の遺伝カウンセリング', en: 'Prenatal testing counseling' } },
        ),
    });
    view = renderApp(path, { locale });
    await screen.findByText(line);
    expect(server.calls('service-read')).toEqual([asked]);
  });

  it('says an unknown clinic was not found, without a form', async () => {
    fakeServer({ '/functions/clinic-read': () => refuse('NOT_FOUND', 404, 'No such clinic.') });
    await openLogin('/c/nowhere');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This clinic could not be found. Please check the address of this page.',
    );
    expect(screen.queryByLabelText('E-mail address')).toBeNull();
  });
});

describe('login screen after a forced sign-out', () => {
  it.each([
    ['appointmentFailed', /Something went wrong while preparing your booking, so you have been signed out/],
    ['sessionEnded', /Your session has ended\. Please sign in again\./],
  ] as const)('explains %s until a new link is sent', async (notice, text) => {
    fakeServer({ '/functions/sendEmail-authLink': () => reply({ sent: true }) });
    const user = await openLogin('/');
    useAppStore.getState().setLoginNotice(notice);
    expect((await screen.findByRole('alert')).textContent).toMatch(text);
    await user.type(screen.getByLabelText('E-mail address'), 'hanako@example.com');
    await user.click(screen.getByRole('button', { name: 'Send sign-in link' }));
    await screen.findByRole('heading', { name: 'Check your inbox' });
    expect(screen.queryByText(text)).toBeNull();
  });
});
