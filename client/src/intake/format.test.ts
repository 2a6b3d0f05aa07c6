import { describe, expect, it } from 'vitest';
import { stepById, type FieldDef } from './definition';
import { formatAnswer, formatRelative } from './format';
import { fillMessage, issueMessage } from './messages';

const find = (stepId: string, path: string): FieldDef => {
  const found = stepById(stepId).fields.find((candidate) => candidate.path === path);
  if (!found) throw new Error(path);
  return found;
};
const en = { locale: 'en' as const, category: 'prenatal', listSeparator: ', ' };
const ja = { locale: 'ja' as const, category: 'prenatal', listSeparator: '、' };

describe('answers for display', () => {
  it('shows option labels, not codes', () => {
    const country = find('contact', 'intake.contactInfo.country');
    expect(formatAnswer(country, 'JP', en)).toBe('Japan');
    expect(formatAnswer(country, 'JP', ja)).toBe('日本');
    const role = find('patient', 'patientRole');
    expect(formatAnswer(role, 10, en)).toBe('Expectant mother');
    expect(formatAnswer(role, 0, { ...en, category: 'pgt' })).toBe('Woman having fertility treatment');
  });

  it('shows dates localized: long in English, short in Japanese', () => {
    const dob = find('profile', 'intake.profile.femaleDob');
    expect(formatAnswer(dob, '1990-04-01', en)).toBe('April 1, 1990');
    expect(formatAnswer(dob, '1990-04-01', ja)).toBe('1990/04/01');
  });

  it('joins lists and adds the other text to "Other"', () => {
    const expectations = find('expectations', 'intake.requests.expectations');
    const other = { field: find('expectations', 'intake.requests.expectationsOther'), value: 'Talk to my mother' };
    expect(formatAnswer(expectations, [1, 'other'], en, other)).toBe('Understand my situation better, Other (Talk to my mother)');
    expect(formatAnswer(expectations, [1, 2], ja)).toBe('状況をよく理解したい、詳しい情報を知りたい');
    const registrant = find('contact', 'intake.contactInfo.registrant');
    expect(formatAnswer(registrant, 'other', en, { field: find('contact', 'intake.contactInfo.registrantOther'), value: 'Sister' })).toBe(
      'Other (Sister)',
    );
  });

  it('shows conditions in words (staff: with their classification code), and the comma-separated other conditions', () => {
    const family = find('family', 'intake.familyMembers');
    const disorders = family.fields?.find((f) => f.path === 'disorders');
    const disordersOther = family.fields?.find((f) => f.path === 'disordersOther');
    if (!disorders || !disordersOther) throw new Error('definition changed');
    const other = { field: disordersOther, value: 'Marfan,, Fabry ' };
    expect(formatAnswer(disorders, ['Q90', 'Q36', 'other'], en, other)).toBe('Down syndrome, Cleft lip, Other (Marfan, Fabry)');
    expect(formatAnswer(disorders, ['Q90', 'other'], { ...en, showCodes: true }, other)).toBe('Down syndrome (Q90), Other (Marfan, Fabry)');
  });

  it('names a relative with whose family they are in, once', () => {
    const family = find('family', 'intake.familyMembers');
    const relationOther = family.fields?.find((f) => f.path === 'relationshipOther');
    if (!relationOther) throw new Error('definition changed');
    expect(formatRelative(0, 9, en)).toBe("The woman's paternal grandfather (her father's father)");
    expect(formatRelative(1, 3, ja)).toBe('パートナーの父');
    expect(formatRelative(undefined, 2, en)).toBe('Daughter');
    expect(formatRelative(1, 1, en)).toBe('Son'); // saved with a side before: the couple's child all the same
    expect(formatRelative(1, 'other', ja, { field: relationOther, value: '義理の兄' })).toBe('パートナーのその他のご親族 (義理の兄)');
    expect(formatRelative(undefined, 9, en)).toBeNull(); // no side: no choice shows it
  });

  it('returns null for no answer, and the code itself for an unknown code', () => {
    const country = find('contact', 'intake.contactInfo.country');
    expect(formatAnswer(country, null, en)).toBeNull();
    expect(formatAnswer(find('contact', 'intake.contactInfo.lastName'), '  ', en)).toBeNull();
    expect(formatAnswer(country, 'ZZ', en)).toBe('ZZ');
  });

  it('names countries, prefectures and an old "other" country, and spaces an international phone', () => {
    const country = find('contact', 'intake.contactInfo.country');
    expect(formatAnswer(country, 'US', en)).toBe('United States');
    expect(formatAnswer(country, 'US', { ...en, locale: 'ja' })).toBe('アメリカ合衆国');
    expect(formatAnswer(country, 'other', en)).toBe('Other (country not given)');
    const prefecture = find('contact', 'intake.contactInfo.subdivision');
    expect(formatAnswer(prefecture, 'JP-13', { ...en, locale: 'ja' })).toBe('東京都');
    expect(formatAnswer(prefecture, '東京都', en)).toBe('東京都'); // typed before the list: as typed
    const phone = find('contact', 'intake.contactInfo.phone');
    expect(formatAnswer(phone, '+14155550134', en)).toBe('+1 415 555 0134');
    expect(formatAnswer(phone, '03-1234-5678', en)).toBe('03-1234-5678');
  });
});

describe('messages of problems', () => {
  it('fills placeholders', () => {
    expect(fillMessage('at most {{max}} ({{other}})', { max: 4 })).toBe('at most 4 ({{other}})');
  });

  it('uses the definition words in both languages', () => {
    const code = find('clinic', 'intake.healthCareProvider.code');
    expect(issueMessage('required', code, 'en', '2025-03-05')).toBe('*Required');
    expect(issueMessage('required', code, 'ja', '2025-03-05')).toBe('*必須です');
    expect(issueMessage('providerCode', code, 'en', '2025-03-05')).toBe('Please check the code: it has 4 letters or digits.');
    expect(issueMessage('tooLong', code, 'en', '2025-03-05')).toBe('Use at most 4 characters.');
    const births = find('pregnancy-history', 'intake.pregnancyHistory.numBirths');
    expect(issueMessage('numberRange', births, 'en', '2025-03-05')).toBe('Enter a number from 0 to 30.');
  });

  it('shows date bounds localized, relative ones from the clinic date', () => {
    const edd = find('pregnancy-current', 'intake.currentPregnancy.edd');
    expect(issueMessage('dateAfter', edd, 'en', '2025-03-05')).toBe('The date must be after March 5, 2025.');
    expect(issueMessage('dateBefore', edd, 'ja', '2025-03-05')).toBe('2025/12/30以前の日付を入力してください。');
  });

  it("falls back to the server's words for a key it does not know", () => {
    expect(issueMessage('somethingNew', null, 'en', '2025-03-05', 'Server says no.')).toBe('Server says no.');
    expect(issueMessage('somethingNew', null, 'en', '2025-03-05')).toBe('Choose one of the options.');
    const reports = find('pgt-reports', 'intake.analysisReports'); // an item's date, reported at the list
    expect(issueMessage('dateBefore', reports, 'en', '2025-03-05', 'Item 1, testReportDate: ...')).toBe(
      'Item 1, testReportDate: ...',
    );
  });
});
