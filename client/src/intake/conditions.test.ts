import { describe, expect, it } from 'vitest';
import {
  applicableSteps,
  evaluateCondition,
  isFieldRequired,
  isFieldVisible,
  nextRoute,
  scopeOf,
} from './conditions';
import { definition, optionsFor, stepById, type FieldDef } from './definition';

const ids = (category: string | null) => applicableSteps(scopeOf({}, category)).map((step) => step.id);
const field = (stepId: string, path: string): FieldDef => {
  const found = stepById(stepId).fields.find((candidate) => candidate.path === path);
  if (!found) throw new Error(path);
  return found;
};
/** A document-shaped object from dot paths. */
function doc(entries: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [path, value] of Object.entries(entries)) {
    const parts = path.split('.');
    let node = out;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts.at(-1) ?? ''] = value;
  }
  return out;
}

describe('steps that apply per service category', () => {
  it('prenatal: no fertility treatment, no analysis reports', () => {
    expect(ids('prenatal')).toEqual([
      'clinic',
      'patient',
      'contact',
      'profile',
      'family',
      'pregnancy-current',
      'pregnancy-history',
      'prenatal-testing',
      'expectations',
    ]);
  });

  it('pgt: fertility treatment and analysis reports, no prenatal testing', () => {
    expect(ids('pgt')).toEqual([
      'clinic',
      'patient',
      'contact',
      'profile',
      'family',
      'fertility-treatment',
      'pregnancy-current',
      'pregnancy-history',
      'pgt-reports',
      'expectations',
    ]);
  });

  it('cancer: only the steps without a service condition', () => {
    expect(ids('cancer')).toEqual(['clinic', 'patient', 'contact', 'profile', 'family', 'expectations']);
  });

  it('an unknown category gets only the steps without a condition', () => {
    expect(ids(null)).toEqual(ids('cancer'));
  });
});

describe('navigation', () => {
  it('leads to the next applicable step, then the calendar', () => {
    const prenatal = scopeOf({}, 'prenatal');
    expect(nextRoute('clinic', prenatal)).toBe('/b/patient');
    expect(nextRoute('family', prenatal)).toBe('/b/pregnancy-current');
    expect(nextRoute('pregnancy-history', prenatal)).toBe('/b/prenatal-testing');
    expect(nextRoute('expectations', prenatal)).toBe('/b/appointment');
    const pgt = scopeOf({}, 'pgt');
    expect(nextRoute('family', pgt)).toBe('/b/fertility-treatment');
    expect(nextRoute('pregnancy-history', pgt)).toBe('/b/pgt-reports');
    const cancer = scopeOf({}, 'cancer');
    expect(nextRoute('family', cancer)).toBe('/b/expectations');
    // A step that does not apply (visited directly) leads to the next one that does.
    expect(nextRoute('pregnancy-current', cancer)).toBe('/b/expectations');
    expect(nextRoute('prenatal-testing', pgt)).toBe('/b/pgt-reports');
  });
});

describe('conditions', () => {
  const scope = scopeOf(doc({ 'intake.a': 2, 'intake.list': ['x', 'other'] }), 'pgt');
  it('"in" compares strictly, also against list answers', () => {
    expect(evaluateCondition({ field: 'intake.a', in: [1, 2] }, scope)).toBe(true);
    expect(evaluateCondition({ field: 'intake.a', in: ['2'] }, scope)).toBe(false);
    expect(evaluateCondition({ field: 'intake.missing', in: [1] }, scope)).toBe(false);
    expect(evaluateCondition({ field: 'intake.list', in: ['x'] }, scope)).toBe(true);
  });
  it('"contains" needs a list holding the value', () => {
    expect(evaluateCondition({ field: 'intake.list', contains: 'other' }, scope)).toBe(true);
    expect(evaluateCondition({ field: 'intake.a', contains: 2 }, scope)).toBe(false);
  });
  it('"service" needs a known category', () => {
    expect(evaluateCondition({ service: ['pgt'] }, scope)).toBe(true);
    expect(evaluateCondition({ service: ['prenatal'] }, scope)).toBe(false);
    expect(evaluateCondition({ service: ['pgt'] }, scopeOf({}, null))).toBe(false);
  });
});

describe('shown and required fields', () => {
  const contact = stepById('contact').fields;
  const attendance = field('contact', 'intake.contactInfo.pregnantWomanAttendance');

  it('asks whether the expectant mother attends only for prenatal services', () => {
    expect(isFieldVisible(attendance, contact, scopeOf({}, 'prenatal'))).toBe(true);
    expect(isFieldRequired(attendance, contact, scopeOf({}, 'prenatal'))).toBe(true);
    expect(isFieldVisible(attendance, contact, scopeOf({}, 'pgt'))).toBe(false);
    expect(isFieldRequired(attendance, contact, scopeOf({}, 'cancer'))).toBe(false);
  });

  it('shows the prefecture for Japan only', () => {
    const subdivision = field('contact', 'intake.contactInfo.subdivision');
    expect(isFieldVisible(subdivision, contact, scopeOf(doc({ 'intake.contactInfo.country': 'JP' }), 'pgt'))).toBe(true);
    expect(isFieldVisible(subdivision, contact, scopeOf(doc({ 'intake.contactInfo.country': 'other' }), 'pgt'))).toBe(false);
    expect(isFieldVisible(subdivision, contact, scopeOf({}, 'pgt'))).toBe(false);
  });

  it('shows and requires an "other" text only with the option "other"', () => {
    const registrantOther = field('contact', 'intake.contactInfo.registrantOther');
    const withOther = scopeOf(doc({ 'intake.contactInfo.registrant': 'other' }), 'prenatal');
    const withPartner = scopeOf(doc({ 'intake.contactInfo.registrant': 2 }), 'prenatal');
    expect(isFieldVisible(registrantOther, contact, withOther)).toBe(true);
    expect(isFieldRequired(registrantOther, contact, withOther)).toBe(true);
    expect(isFieldVisible(registrantOther, contact, withPartner)).toBe(false);
    expect(isFieldRequired(registrantOther, contact, withPartner)).toBe(false);
  });

  it('requires the referring hospital for referrals by a provider or clinic (3, 4), showing it always', () => {
    const fields = stepById('expectations').fields;
    const hospital = field('expectations', 'intake.requests.referralHospitalName');
    for (const [source, required] of [[3, true], [4, true], [1, false], ['other', false]] as const) {
      const scope = scopeOf(doc({ 'intake.requests.referralSource': source }), 'cancer');
      expect(isFieldVisible(hospital, fields, scope)).toBe(true);
      expect(isFieldRequired(hospital, fields, scope), String(source)).toBe(required);
    }
  });

  it('treats an answer of a hidden field as absent (chained conditions)', () => {
    const fields = stepById('fertility-treatment').fields;
    const details = field('fertility-treatment', 'intake.fertilityTreatment.femaleChromosomeDetails');
    const tested = doc({
      'intake.fertilityTreatment.femaleChromosomeTest': 1,
      'intake.fertilityTreatment.femaleChromosomeResult': 2,
    });
    expect(isFieldVisible(details, fields, scopeOf(tested, 'pgt'))).toBe(true);
    const notTestedAnyMore = doc({
      'intake.fertilityTreatment.femaleChromosomeTest': 2,
      'intake.fertilityTreatment.femaleChromosomeResult': 2,
    });
    expect(isFieldVisible(details, fields, scopeOf(notTestedAnyMore, 'pgt'))).toBe(false);
  });

  it('requires the egg collection date only for ICSI and IVF-ET in a current pregnancy', () => {
    const fields = stepById('pregnancy-current').fields;
    const egg = field('pregnancy-current', 'intake.currentPregnancy.eggCollectionDate');
    const at = (method: number, pregnant = 1) =>
      scopeOf(doc({ 'intake.currentPregnancy.isPregnant': pregnant, 'intake.currentPregnancy.conceptionMethod': method }), 'pgt');
    expect(isFieldRequired(egg, fields, at(4))).toBe(true);
    expect(isFieldRequired(egg, fields, at(5))).toBe(true);
    expect(isFieldRequired(egg, fields, at(1))).toBe(false);
    expect(isFieldRequired(egg, fields, at(5, 0))).toBe(false);
  });

  it('offers the patient roles of the service category, else the default group', () => {
    const role = field('patient', 'patientRole');
    const codes = (category: string | null) => optionsFor(role, category).map((option) => option.value);
    expect(codes('pgt')).toEqual([0, 1, 9]);
    expect(codes('prenatal')).toEqual([10, 11, 19]);
    expect(codes('cancer')).toEqual([90, 91, 99]);
    expect(codes(null)).toEqual([90, 91, 99]);
  });

  it('applies item conditions inside a repeater item', () => {
    const family = field('family', 'intake.familyMembers');
    const items = family.fields ?? [];
    const relationshipOther = items.find((f) => f.path === 'relationshipOther');
    const disordersOther = items.find((f) => f.path === 'disordersOther');
    if (!relationshipOther || !disordersOther) throw new Error('definition changed');
    const item = scopeOf({ side: 0, relationship: 'other', disorders: ['Q90'] }, 'prenatal');
    expect(isFieldRequired(relationshipOther, items, item)).toBe(true);
    expect(isFieldVisible(disordersOther, items, item)).toBe(false);
    const withOtherDisorder = scopeOf({ disorders: ['Q90', definition.otherValue] }, 'prenatal');
    expect(isFieldRequired(disordersOther, items, withOtherDisorder)).toBe(true);
  });
});
