import { describe, expect, it } from 'vitest';
import { emailDomain, emailFieldError, isValidEmail, normalizeEmail } from './email';

describe('the login e-mail rule', () => {
  it.each(['hanako@example.com', 'a.b+tag@mail.example.co.jp', '  taro@example.jp  ', 'x@docomo.ne.jp'])(
    'accepts %j',
    (value) => {
      expect(isValidEmail(value)).toBe(true);
    },
  );

  it.each(['', 'hanako', 'hanako@', '@example.com', 'hanako@example', 'ha nako@example.com', 'a@b@example.com', 'a@example..com', 'a@.example.com'])(
    'refuses %j',
    (value) => {
      expect(isValidEmail(value)).toBe(false);
    },
  );

  it('refuses a local part over 64 characters and an address over 254', () => {
    expect(isValidEmail(`${'a'.repeat(64)}@example.com`)).toBe(true);
    expect(isValidEmail(`${'a'.repeat(65)}@example.com`)).toBe(false);
    expect(isValidEmail(`a@${'b'.repeat(250)}.jp`)).toBe(false);
  });

  it('sends the address trimmed and reads its domain in lower case', () => {
    expect(normalizeEmail('  Hanako@Example.COM ')).toBe('Hanako@Example.COM');
    expect(emailDomain('Hanako@Example.COM')).toBe('example.com');
    expect(emailDomain('no-at-sign')).toBe('');
  });

  it('names what is wrong: an empty field asks for an address, anything else is not one', () => {
    expect(emailFieldError('')).toBe('emailRequired');
    expect(emailFieldError('  ')).toBe('emailRequired');
    expect(emailFieldError('hanako')).toBe('invalidEmail');
    expect(emailFieldError('hanako@example.com')).toBeNull();
  });
});
