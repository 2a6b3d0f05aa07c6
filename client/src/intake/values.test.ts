import { describe, expect, it } from 'vitest';
import { stepById } from './definition';
import { changedData, formValuesFor, itemFormValues, toWireValue, wireAnswersFor } from './values';
import { getPath } from './paths';

describe('form values of a step', () => {
  it('come from the document, texts as text and choices as codes', () => {
    const document = {
      patientRole: 10,
      intake: { healthCareProvider: { patientId: 'P1' }, pregnancyHistory: { numBirths: 2 } },
    };
    expect(formValuesFor(stepById('patient'), document)).toEqual({
      patientRole: 10,
      intake: { healthCareProvider: { patientId: 'P1' } },
    });
    expect(getPath(formValuesFor(stepById('pregnancy-history'), document), 'intake.pregnancyHistory.numBirths')).toBe('2');
    expect(getPath(formValuesFor(stepById('pregnancy-history'), {}), 'intake.pregnancyHistory.wasPregnant')).toBeNull();
  });

  it('take a prefill (the provider code of ?id=) only where nothing is stored', () => {
    const step = stepById('clinic');
    const prefill = { 'intake.healthCareProvider.code': 'AB12' };
    expect(getPath(formValuesFor(step, {}, prefill), 'intake.healthCareProvider.code')).toBe('AB12');
    const stored = { intake: { healthCareProvider: { code: 'ZZ99' } } };
    expect(getPath(formValuesFor(step, stored, prefill), 'intake.healthCareProvider.code')).toBe('ZZ99');
  });

  it('give repeater items every item field', () => {
    const family = stepById('family').fields[0];
    if (!family) throw new Error('definition changed');
    expect(itemFormValues(family)).toEqual({ side: null, relationship: null, relationshipOther: '', disorders: [], disordersOther: '' });
  });
});

describe('wire values', () => {
  const profile = stepById('profile').fields[0];
  const births = stepById('pregnancy-history').fields.find((f) => f.path.endsWith('numBirths'));
  if (!profile || !births) throw new Error('definition changed');

  it('trim texts and send null for no answer', () => {
    const lastName = stepById('contact').fields.find((f) => f.path === 'intake.contactInfo.lastName');
    if (!lastName) throw new Error('definition changed');
    expect(toWireValue(lastName, '  ヤマダ ', 'prenatal')).toBe('ヤマダ');
    expect(toWireValue(lastName, '　', 'prenatal')).toBeNull();
  });

  it('send numbers as numbers (full-width digits too), anything else as typed', () => {
    expect(toWireValue(births, '2', 'prenatal')).toBe(2);
    expect(toWireValue(births, '１２', 'prenatal')).toBe(12);
    expect(toWireValue(births, '', 'prenatal')).toBeNull();
    expect(toWireValue(births, 'two', 'prenatal')).toBe('two');
  });

  it('send typed dates as ISO dates', () => {
    expect(toWireValue(profile, '1990/4/1', 'prenatal')).toBe('1990-04-01');
    expect(toWireValue(profile, 'soon', 'prenatal')).toBe('soon');
    const long = `1990-04-01${' '.repeat(991)}`; // 1001 characters: not read, not trimmed
    expect(toWireValue(profile, long, 'prenatal')).toBe(long);
  });

  it('clear hidden answers and keep items to their shown fields', () => {
    const current = stepById('pregnancy-current');
    const values = formValuesFor(current, {
      intake: { currentPregnancy: { isPregnant: 0, edd: '2025-05-01', fetusType: 1 } },
    });
    const wire = wireAnswersFor(current, values, 'prenatal');
    expect(getPath(wire, 'intake.currentPregnancy.isPregnant')).toBe(0);
    expect(getPath(wire, 'intake.currentPregnancy.edd')).toBeNull();
    const family = stepById('family');
    const familyWire = wireAnswersFor(
      family,
      {
        intake: {
          familyMembers: [{ side: 0, relationship: 3, relationshipOther: 'left over', disorders: ['Q90'], disordersOther: '' }],
        },
      },
      'prenatal',
    );
    expect(getPath(familyWire, 'intake.familyMembers')).toEqual([{ side: 0, relationship: 3, disorders: ['Q90'] }]);
  });
});

describe('the data of a save', () => {
  it('holds exactly the changed paths', () => {
    const contact = stepById('contact');
    const stored = { intake: { contactInfo: { lastName: 'ヤマダ', firstName: 'ハナコ', country: 'JP', subdivision: 'JP-13' } } };
    const values = formValuesFor(contact, stored);
    const edited = { intake: { contactInfo: { ...(values.intake as { contactInfo: object }).contactInfo, firstName: ' ハナ ', phone: '03-1234-5678' } } };
    expect(changedData(contact, wireAnswersFor(contact, edited, 'prenatal'), stored)).toEqual({
      'intake.contactInfo.firstName': 'ハナ',
      'intake.contactInfo.phone': '03-1234-5678',
    });
    expect(changedData(contact, wireAnswersFor(contact, values, 'prenatal'), stored)).toEqual({});
  });

  it('clears a prefecture left behind when the country changes', () => {
    const contact = stepById('contact');
    const stored = { intake: { contactInfo: { country: 'JP', subdivision: 'JP-13' } } };
    const values = formValuesFor(contact, stored);
    const abroad = { intake: { contactInfo: { ...(values.intake as { contactInfo: object }).contactInfo, country: 'US' } } };
    expect(changedData(contact, wireAnswersFor(contact, abroad, 'prenatal'), stored)).toEqual({
      'intake.contactInfo.country': 'US',
      'intake.contactInfo.subdivision': null,
    });
  });

  it('keeps a prefecture typed before the list: chosen by its name, saved as its code', () => {
    const contact = stepById('contact');
    for (const typed of ['東京都', 'Tokyo']) {
      const stored = { intake: { contactInfo: { country: 'JP', subdivision: typed } } };
      const values = formValuesFor(contact, stored);
      expect(changedData(contact, wireAnswersFor(contact, values, 'prenatal'), stored)).toEqual({
        'intake.contactInfo.subdivision': 'JP-13',
      });
    }
    const unknown = { intake: { contactInfo: { country: 'JP', subdivision: 'Kanto' } } };
    expect(changedData(contact, wireAnswersFor(contact, formValuesFor(contact, unknown), 'prenatal'), unknown)).toEqual({});
  });
});
