/**
 * Typed values read as the server reads them: the cases are tests/intake_format_cases.json,
 * which tests/test_intake_formats.py checks against the server too.
 */
import { describe, expect, it } from 'vitest';
import cases from '../../../tests/intake_format_cases.json';
import { toHalfWidth } from '../validation/halfWidth';
import { normalizeEmail, isValidEmail } from '../validation/email';
import { isFieldVisible, scopeOf } from './conditions';
import { ageIssue, parseTypedDate, pickerBoundsOf } from './dates';
import { definition, optionsFor, stepById, type FieldDef, type OptionValue } from './definition';
import { issueMessage } from './messages';
import { checkValue, missingAnswers, toggleChoice, type ValidationContext } from './validate';
import { toWireValue, wireAnswersFor } from './values';

function field(stepId: string, path: string): FieldDef {
  const found = stepById(stepId).fields.find((candidate) => candidate.path === path);
  if (!found) throw new Error(path);
  return found;
}

const context: ValidationContext = { category: 'prenatal', today: cases.birthDates.today };

describe('full-width letters and digits', () => {
  it.each(cases.halfWidth)('%s is validated as %s', (typed, expected) => {
    expect(toHalfWidth(typed)).toBe(expected);
  });

  it.each(cases.patientIds)('the patient ID %s is saved as %s', (typed, stored) => {
    const patientId = field('patient', 'intake.healthCareProvider.patientId');
    const wire = toWireValue(patientId, typed, 'prenatal');
    if (stored === null) expect(checkValue(patientId, wire, context)).toBe('patientId');
    else expect([wire, checkValue(patientId, wire, context)]).toEqual([stored, null]);
  });

  it('reads a full-width e-mail address as the sign-in sends it', () => {
    expect(normalizeEmail(' ｈａｎａｋｏ＠ｅｘａｍｐｌｅ．ｊｐ ')).toBe('hanako@example.jp');
    expect(isValidEmail('ｈａｎａｋｏ＠ｅｘａｍｐｌｅ．ｊｐ')).toBe(true);
  });

  it('keeps free text as written', () => {
    const topics = field('expectations', 'intake.requests.topics');
    expect(toWireValue(topics, 'ＮＩＰＴの結果について', 'prenatal')).toBe('ＮＩＰＴの結果について');
  });
});

describe('typed dates', () => {
  it.each(cases.dates)('%s is %s', (typed, iso) => {
    expect(parseTypedDate(String(typed))).toBe(iso);
  });

  it('says the accepted forms in both languages', async () => {
    const en = (await import('../locales/en/intake.json')).date.format;
    const ja = (await import('../locales/ja/intake.json')).date.format;
    expect(en).toContain('month/day/year');
    expect(ja).toContain('平成2年4月1日');
  });
});

describe('impossible ages', () => {
  const partnerDob = field('profile', 'intake.profile.partnerDob');

  it.each(cases.birthDates.cases)('a birth date %s gives %s', (dob, problem) => {
    expect(ageIssue(String(dob), context.today)).toBe(problem);
    expect(checkValue(partnerDob, dob, context)).toBe(problem);
  });

  it('says the bound in both languages', () => {
    expect(issueMessage('ageTooOld', partnerDob, 'en', context.today)).toBe(
      'Please check the date of birth: it would make the person older than 120.',
    );
    expect(issueMessage('ageTooOld', partnerDob, 'ja', context.today)).toBe(
      '生年月日をご確認ください。120歳を超える日付は入力できません。',
    );
    expect(issueMessage('ageTooYoung', partnerDob, 'ja', context.today)).toContain('10歳未満');
  });

  it('offers in the calendar only the days of possible ages', () => {
    expect(pickerBoundsOf(partnerDob, '2026-11-26')).toEqual({ after: '1930-01-01', before: '2016-11-26' });
    expect(pickerBoundsOf({ birthDate: true }, '2024-02-29')).toEqual({ after: '1903-02-28', before: '2014-02-28' });
  });
});

describe('"none" is exclusive', () => {
  const pastTests = field('prenatal-testing', 'intake.prenatalTesting.pastTests');
  const fields: Record<string, FieldDef> = {
    'intake.prenatalTesting.pastTests': pastTests,
    'intake.requests.expectations': field('expectations', 'intake.requests.expectations'),
  };

  it.each(cases.exclusive)('%s = %j gives %s', (path, value, problem) => {
    const target = fields[path as string];
    if (!target) throw new Error(String(path));
    expect(checkValue(target, value, context)).toBe(problem);
  });

  it('is declared in the definition for "なし" and "特になし"', () => {
    const exclusive = Object.values(definition.options)
      .flat()
      .filter((option) => option.exclusive === true)
      .map((option) => option.label.ja);
    expect(exclusive).toEqual(['特になし', 'なし']);
  });

  it('ticking none clears the others, ticking another clears none', () => {
    const options = optionsFor(pastTests, 'prenatal');
    const tick = (chosen: OptionValue[], option: OptionValue) => toggleChoice(options, chosen, option, true);
    expect(tick([4, 'other'], 0)).toEqual([0]);
    expect(tick([0], 4)).toEqual([4]);
    expect(tick([4], 1)).toEqual([1, 4]);
    expect(toggleChoice(options, [1, 4], 4, false)).toEqual([1]);
  });

  it('names the option in the refusal', () => {
    expect(issueMessage('exclusiveOption', pastTests, 'ja', context.today)).toBe('「なし」はほかの選択肢と一緒には選べません。');
    expect(issueMessage('exclusiveOption', pastTests, 'en', context.today)).toBe('\u201cNone\u201d cannot be chosen together with other answers.');
  });
});

describe('questions that do not apply', () => {
  const step = stepById('prenatal-testing');
  const hadPastTests = field('prenatal-testing', 'intake.prenatalTesting.hadPastTests');
  const document = (wasPregnant: number, isPregnant = 0) => ({
    intake: {
      pregnancyHistory: { wasPregnant },
      currentPregnancy: { isPregnant },
      prenatalTesting: { hadPastTests: 1, pastTests: [4] },
    },
  });

  it('asks about tests in an earlier pregnancy only after "Yes" to one', () => {
    expect(isFieldVisible(hadPastTests, step.fields, scopeOf(document(0), 'prenatal'))).toBe(false);
    expect(isFieldVisible(hadPastTests, step.fields, scopeOf(document(1), 'prenatal'))).toBe(true);
  });

  it('neither requires nor keeps the answers left from an earlier "Yes"', () => {
    const missing = missingAnswers(step, document(0), context);
    expect(missing).not.toContain('intake.prenatalTesting.hadPastTests');
    expect(missing).not.toContain('intake.prenatalTesting.hasPresentTests'); // not pregnant now
    expect(missingAnswers(step, document(0, 1), context)).toContain('intake.prenatalTesting.hasPresentTests');
    const values = { intake: { prenatalTesting: { hadPastTests: 1, pastTests: [4] } } };
    const wire = wireAnswersFor(step, values, 'prenatal', document(0));
    expect(wire).toMatchObject({ intake: { prenatalTesting: { hadPastTests: null, pastTests: null } } });
    expect(wireAnswersFor(step, values, 'prenatal', document(1))).toMatchObject({
      intake: { prenatalTesting: { hadPastTests: 1, pastTests: [4] } },
    });
  });

  it('asks about PGT in this pregnancy only after IVF, ICSI or donation', () => {
    const current = stepById('pregnancy-current');
    const hasPgt = field('pregnancy-current', 'intake.currentPregnancy.hasPgt');
    const answers = (conceptionMethod: number) => ({ intake: { currentPregnancy: { isPregnant: 1, conceptionMethod } } });
    expect(isFieldVisible(hasPgt, current.fields, scopeOf(answers(1), 'prenatal'))).toBe(false);
    expect(isFieldVisible(hasPgt, current.fields, scopeOf(answers(5), 'prenatal'))).toBe(true);
  });
});
