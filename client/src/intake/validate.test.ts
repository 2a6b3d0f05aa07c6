import { describe, expect, it } from 'vitest';
import { resolveField, scopeOf } from './conditions';
import { stepById, type FieldDef } from './definition';
import { checkValue, isEmptyAnswer, listEntries, missingAnswers, ruleAccepts, stepIssues, type ValidationContext } from './validate';
import { contactBasics } from '../test/answers';

const context: ValidationContext = { category: 'prenatal', today: '2025-03-05' };
const field = (stepId: string, path: string): FieldDef => {
  const step = stepById(stepId);
  const found = step.fields.find((candidate) => candidate.path === path);
  if (!found) throw new Error(path);
  return found;
};

describe('rule katakana (names and alias)', () => {
  it.each([
    ['ヤマダ', true],
    ['ヤマダ　ハナコ', true], // full-width space
    ['ヤマダ ハナコ', true],
    ['マリー・アントワネット', true], // middle dot
    ['ユーリ', true], // long-vowel mark
    ['ｶﾀｶﾅ', false], // half-width katakana
    ['やまだ', false], // hiragana
    ['山田', false],
    ['Yamada', false],
    ['ヤマダ1', false],
    ['', false],
    ['   ', false], // whitespace only
    ['　', false],
  ])('%j -> %s', (value, accepted) => {
    expect(ruleAccepts('katakana', value)).toBe(accepted);
  });
});

describe('rule phone', () => {
  it.each([
    ['03-1234-5678', true],
    ['09012345678', true],
    ['０３-１２３４-５６７８', false], // full-width digits
    ['03 1234 5678', false],
    ['+81-3-1234-5678', false],
    ['03ー1234ー5678', false], // long-vowel mark, not a dash
    ['', false],
  ])('%j -> %s', (value, accepted) => {
    expect(ruleAccepts('phone', value)).toBe(accepted);
  });
});

describe('rule latinName (the names of a person abroad)', () => {
  it.each([
    ['Carter', true],
    ['Zoë', true],
    ['José María', true],
    ["O'Brien", true],
    ['O’Brien', true], // the apostrophe phones type
    ['Anne-Marie', true],
    ['José', true], // an accent typed as a combining mark
    ['Łukasz Żółw', true],
    ['St. John', true],
    ['ヤマダ', false],
    ['山田', false],
    ['Carter2', false],
    ['Carter!', false],
    ["-'", false], // signs without a letter
    ['', false],
    ['   ', false],
  ])('%j -> %s', (value, accepted) => {
    expect(ruleAccepts('latinName', value)).toBe(accepted);
  });
});

describe('rule internationalPhone (libphonenumber, in the country chosen)', () => {
  const inCountry = (country: string) => scopeOf({ intake: { contactInfo: { country } } }, 'prenatal');
  it.each([
    ['+1 (415) 555-0134', 'US', true],
    ['(415) 555-0134', 'US', true], // no country code: read in the country chosen
    ['020 7946 0958', 'GB', true],
    ['+81 90-1234-5678', 'US', true], // a Japanese mobile of someone living abroad
    ['(415) 555-0134', 'GB', false], // not a British number
    ['12345', 'US', false],
    ['+1 415 555 0134 ext. 3', 'US', false], // E.164 has no extension
    ['090-1234-5678', 'AQ', false], // no numbering plan to read it in: "+" needed
    ['+1 415 555 0134', 'AQ', true],
  ])('%j in %s -> %s', (value, country, accepted) => {
    expect(ruleAccepts('internationalPhone', value, inCountry(country))).toBe(accepted);
  });
});

describe('rule providerCode: 4 half-width letters or digits, case kept', () => {
  it.each([
    ['AB12', true],
    ['ab12', true],
    ['aB1z', true],
    ['ABC', false],
    ['ABCDE', false], // 5 characters
    ['AB 1', false],
    ['ＡＢ１２', false], // full-width
    ['AB-1', false],
  ])('%j -> %s', (value, accepted) => {
    expect(ruleAccepts('providerCode', value)).toBe(accepted);
  });

  it('says "Please check the code: it has 4 letters or digits." for a 5-character code (rule before length)', () => {
    expect(checkValue(field('clinic', 'intake.healthCareProvider.code'), 'ABCDE', context)).toBe('providerCode');
    expect(checkValue(field('clinic', 'intake.healthCareProvider.code'), 'abcd', context)).toBeNull();
  });
});

describe('rule patientId and customAlphanumeric', () => {
  it('patient ID: letters and digits, any case, nothing else', () => {
    expect(ruleAccepts('patientId', 'Pt00123')).toBe(true);
    expect(ruleAccepts('patientId', 'pt-00123')).toBe(false);
    expect(ruleAccepts('patientId', ' Pt1')).toBe(false);
  });

  it('customAlphanumeric is trimmed first, and needs at least one character', () => {
    expect(ruleAccepts('customAlphanumeric', '  CR2025x  ')).toBe(true);
    expect(ruleAccepts('customAlphanumeric', 'CR 2025')).toBe(false);
    expect(ruleAccepts('customAlphanumeric', '   ')).toBe(false);
    expect(ruleAccepts('customAlphanumeric', 'ＣＲ１')).toBe(false);
  });

  it('e-mail', () => {
    expect(ruleAccepts('email', 'hanako@example.jp')).toBe(true);
    expect(ruleAccepts('email', 'hanako@example')).toBe(false);
    expect(ruleAccepts('email', 'hana ko@example.jp')).toBe(false);
  });
});

describe('checks of a value by type', () => {
  it('texts: must be text, at most maxLength code points', () => {
    const address = field('contact', 'intake.contactInfo.address'); // maxLength 300
    expect(checkValue(address, 'あ'.repeat(300), context)).toBeNull();
    expect(checkValue(address, 'あ'.repeat(301), context)).toBe('tooLong');
    expect(checkValue(address, '𠮷'.repeat(300), context)).toBeNull(); // one code point each
    expect(checkValue(address, 42, context)).toBe('mustBeText');
    const lastName = field('contact', 'intake.contactInfo.lastName');
    expect(checkValue(lastName, 'ヤ'.repeat(51), context)).toBe('tooLong');
    expect(checkValue(lastName, 'ｶﾀｶﾅ', context)).toBe('katakana');
  });

  it('numbers: integers from min to max', () => {
    const births = field('pregnancy-history', 'intake.pregnancyHistory.numBirths'); // 0..30
    expect(checkValue(births, 0, context)).toBeNull();
    expect(checkValue(births, 30, context)).toBeNull();
    expect(checkValue(births, 31, context)).toBe('numberRange');
    expect(checkValue(births, -1, context)).toBe('numberRange');
    expect(checkValue(births, 1.5, context)).toBe('numberRange');
    expect(checkValue(births, 'three', context)).toBe('numberRange');
  });

  it('dates: ISO calendar dates, strictly after `after`, on or before `before`', () => {
    const edd = field('pregnancy-current', 'intake.currentPregnancy.edd'); // after today, before +300d
    expect(checkValue(edd, '2025-03-06', context)).toBeNull();
    expect(checkValue(edd, '2025-03-05', context)).toBe('dateAfter'); // today is not after today
    expect(checkValue(edd, '2025-12-31', context)).toBe('dateBefore');
    expect(checkValue(edd, '2025-12-30', context)).toBeNull(); // today + 300 days: on the bound
    const dob = field('profile', 'intake.profile.femaleDob'); // after 1940-01-01, a birth date
    expect(checkValue(dob, '1940-01-01', context)).toBe('dateAfter');
    expect(checkValue(dob, '1940-01-02', context)).toBeNull();
    expect(checkValue(dob, '2015-03-05', context)).toBeNull(); // 10 today: the youngest age
    expect(checkValue(dob, '2015-03-06', context)).toBe('ageTooYoung');
    expect(checkValue(dob, '2025-03-06', context)).toBe('ageTooYoung'); // the age comes first
    expect(checkValue(dob, '1850-01-01', context)).toBe('ageTooOld');
    expect(checkValue(dob, '1990-02-30', context)).toBe('invalidDate');
    expect(checkValue(dob, '1990/02/03', context)).toBe('invalidDate');
    expect(checkValue(dob, '1990-02-03T00:00:00Z', context)).toBe('invalidDate');
    expect(checkValue(dob, `1990-02-03${' '.repeat(990)}`, context)).toBe('invalidDate');
    expect(checkValue(dob, '1'.repeat(1001), context)).toBe('invalidDate');
  });

  it('choices: only codes of the option list, lists without repeats', () => {
    const country = field('contact', 'intake.contactInfo.country');
    expect(checkValue(country, 'JP', context)).toBeNull();
    expect(checkValue(country, 'US', context)).toBeNull(); // ISO 3166-1 alpha-2
    expect(checkValue(country, 'XX', context)).toBe('invalidOption');
    expect(checkValue(country, 'other', context)).toBe('invalidOption'); // retired: saved before, not offered
    const prefecture = field('contact', 'intake.contactInfo.subdivision');
    expect(checkValue(prefecture, 'JP-13', context)).toBeNull();
    expect(checkValue(prefecture, '東京都', context)).toBe('invalidOption'); // the code, not the name
    const registrant = field('contact', 'intake.contactInfo.registrant');
    expect(checkValue(registrant, 1, context)).toBeNull();
    expect(checkValue(registrant, '1', context)).toBe('invalidOption'); // codes are numbers
    expect(checkValue(registrant, 7, context)).toBe('invalidOption');
    const expectations = field('expectations', 'intake.requests.expectations');
    expect(checkValue(expectations, [1, 'other'], context)).toBeNull();
    expect(checkValue(expectations, [1, 1], context)).toBe('invalidOption');
    expect(checkValue(expectations, [1, 77], context)).toBe('invalidOption');
    expect(checkValue(expectations, 1, context)).toBe('invalidOption');
  });

  it('patient role: only the codes of the appointment category', () => {
    const role = field('patient', 'patientRole');
    expect(checkValue(role, 10, context)).toBeNull();
    expect(checkValue(role, 0, context)).toBe('invalidOption');
    expect(checkValue(role, 0, { ...context, category: 'pgt' })).toBeNull();
  });

  it('repeaters: at most maxItems', () => {
    const family = field('family', 'intake.familyMembers');
    const member = { side: 0, relationship: 3, disorders: ['Q90'] };
    expect(checkValue(family, Array.from({ length: 20 }, () => member), context)).toBeNull();
    expect(checkValue(family, Array.from({ length: 21 }, () => member), context)).toBe('tooMany');
  });
});

describe('empty answers', () => {
  it('nothing, whitespace-only text and empty lists are no answer', () => {
    expect(isEmptyAnswer({}, null)).toBe(true);
    expect(isEmptyAnswer({}, undefined)).toBe(true);
    expect(isEmptyAnswer({}, ' \u3000\t')).toBe(true);
    expect(isEmptyAnswer({}, [])).toBe(true);
    expect(isEmptyAnswer({}, 0)).toBe(false);
    expect(isEmptyAnswer({ list: true }, ' , ,')).toBe(true);
    expect(listEntries('Marfan, 22q11 ,,Fabry、ポンペ病')).toEqual(['Marfan', '22q11', 'Fabry', 'ポンペ病']);
  });
});

describe('issues and missing answers of a step', () => {
  it('requires the shown required fields of the contact step (prenatal)', () => {
    expect(missingAnswers(stepById('contact'), {}, context)).toEqual([
      'intake.contactInfo.country',
      'intake.contactInfo.lastName',
      'intake.contactInfo.firstName',
      'intake.contactInfo.email',
      'intake.contactInfo.phone',
      'intake.contactInfo.registrant',
      'intake.contactInfo.pregnantWomanAttendance',
      'intake.contactInfo.hasPrenatalServiceHistory',
    ]);
  });

  it('asks the prefecture once Japan is chosen, and not the attendance for pgt', () => {
    const answers = { intake: { contactInfo: { country: 'JP' } } };
    const missing = missingAnswers(stepById('contact'), answers, { ...context, category: 'pgt' });
    expect(missing).toContain('intake.contactInfo.subdivision');
    expect(missing).not.toContain('intake.contactInfo.pregnantWomanAttendance');
  });

  it('asks a person abroad for Latin names, an international phone and an address, not katakana or a prefecture', () => {
    const contact = stepById('contact');
    const abroad = {
      intake: {
        contactInfo: {
          country: 'US',
          lastName: 'Carter',
          firstName: 'Emily',
          email: 'emily@example.com',
          phone: '+1 (415) 555-0134',
          address: '500 Market St\nSan Francisco, CA 94105',
          registrant: 1,
          pregnantWomanAttendance: 1,
          hasPrenatalServiceHistory: 0,
        },
      },
    };
    expect(stepIssues(contact, abroad, context)).toEqual({});
    const katakana = { intake: { contactInfo: { ...abroad.intake.contactInfo, lastName: 'カーター', nameKana: 'カーター', phone: '555' } } };
    expect(stepIssues(contact, katakana, context)).toEqual({
      'intake.contactInfo.lastName': 'latinName',
      'intake.contactInfo.phone': 'internationalPhone',
    });
    expect(missingAnswers(contact, { intake: { contactInfo: { country: 'US' } } }, context)).toContain('intake.contactInfo.address');
    expect(missingAnswers(contact, { intake: { contactInfo: { country: 'US' } } }, context)).not.toContain('intake.contactInfo.subdivision');
  });

  it('keeps the rules of the spec for a person in Japan: katakana, digits and dashes, the prefecture', () => {
    const contact = stepById('contact');
    const inJapan = { intake: { contactInfo: { ...contactBasics, lastName: 'Carter', phone: '+81 3 1234 5678', subdivision: null } } };
    const issues = stepIssues(contact, inJapan, context);
    expect(issues['intake.contactInfo.lastName']).toBe('katakana');
    expect(issues['intake.contactInfo.phone']).toBe('phone');
    expect(issues['intake.contactInfo.subdivision']).toBe('required');
    expect(issues['intake.contactInfo.address']).toBeUndefined();
  });

  it('names the fields by what they ask: no "(katakana)" for a person abroad', () => {
    const contact = stepById('contact');
    const lastName = field('contact', 'intake.contactInfo.lastName');
    const label = (country: string | null) =>
      resolveField(lastName, contact.fields, scopeOf({ intake: { contactInfo: { country } } }, 'prenatal')).label;
    expect(label('JP')).toEqual({ ja: '姓(カタカナ)', en: 'Last name (katakana)' });
    expect(label('US')).toEqual({ ja: '姓(ローマ字)', en: 'Last name' });
    expect(label(null).en).toBe('Last name (katakana)'); // before a country is chosen: the spec's
  });

  it('counts a whitespace-only name as missing', () => {
    const issues = stepIssues(stepById('contact'), { intake: { contactInfo: { lastName: '　 ' } } }, context);
    expect(issues['intake.contactInfo.lastName']).toBe('required');
  });

  it('reports rule problems and missing answers together, and nothing for a complete step', () => {
    const complete = {
      intake: {
        contactInfo: {
          ...contactBasics,
          registrant: 'other',
          registrantOther: '姉',
          pregnantWomanAttendance: 1,
          hasPrenatalServiceHistory: 0,
        },
      },
    };
    expect(stepIssues(stepById('contact'), complete, context)).toEqual({});
    const broken = { intake: { contactInfo: { ...complete.intake.contactInfo, phone: '03 1234', registrantOther: ' ' } } };
    expect(stepIssues(stepById('contact'), broken, context)).toEqual({
      'intake.contactInfo.phone': 'phone',
      'intake.contactInfo.registrantOther': 'required',
    });
  });

  it('checks each repeater item with full paths, and the minimum of analysis reports', () => {
    const reports = stepById('pgt-reports');
    const pgt = { ...context, category: 'pgt' };
    expect(missingAnswers(reports, {}, pgt)).toEqual(['intake.analysisReports']);
    const answers = {
      intake: {
        analysisReports: [
          { caseRegistrationId: 'CR1', eggId: 'E1', testReportDate: '2024-12-01', cases: 'euploid' },
          { caseRegistrationId: 'CR 2', testReportDate: '2026-01-01', cases: 'x' },
        ],
      },
    };
    expect(stepIssues(reports, answers, pgt)).toEqual({
      'intake.analysisReports.1.caseRegistrationId': 'customAlphanumeric',
      'intake.analysisReports.1.eggId': 'required',
      'intake.analysisReports.1.testReportDate': 'dateBefore',
    });
  });

  it('needs the conditions of each family member, and the other text when "other" is chosen', () => {
    const family = stepById('family');
    expect(missingAnswers(family, {}, context)).toEqual([]); // no family members: nothing required
    const answers = { intake: { familyMembers: [{ side: 1, relationship: 'other', disorders: ['other'] }] } };
    expect(missingAnswers(family, answers, context)).toEqual([
      'intake.familyMembers.0.relationshipOther',
      'intake.familyMembers.0.disordersOther',
    ]);
    const unknownCode = { intake: { familyMembers: [{ side: 1, relationship: 3, disorders: ['Q99.9'] }] } };
    expect(stepIssues(family, unknownCode, context)).toEqual({ 'intake.familyMembers.0.disorders': 'invalidOption' });
  });

  it('requires nothing hidden: not pregnant means no due date', () => {
    const current = stepById('pregnancy-current');
    expect(missingAnswers(current, { intake: { currentPregnancy: { isPregnant: 0 } } }, context)).toEqual([]);
    expect(missingAnswers(current, { intake: { currentPregnancy: { isPregnant: 1 } } }, context)).toEqual([
      'intake.currentPregnancy.edd',
      'intake.currentPregnancy.fetusType',
      'intake.currentPregnancy.conceptionMethod',
      'intake.currentPregnancy.hasFetusDisorder',
      // hasPgt: asked only after IVF, ICSI or donation (conceptionMethod)
    ]);
  });
});
