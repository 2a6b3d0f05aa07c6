import { createRoutesFromElements } from 'react-router';
import { describe, expect, it } from 'vitest';
import { appRoutes } from '../router';
import { definition, groupTypes, multiChoiceTypes, otherParents, singleChoiceTypes, type Condition, type FieldDef } from './definition';
import { resolveDateBound } from './dates';

const knownTypes = ['text', 'textarea', 'number', 'date', 'radio', 'select', 'checkbox', 'scale', 'combobox', 'repeater'];

function everyFieldList(): { where: string; fields: FieldDef[] }[] {
  const lists: { where: string; fields: FieldDef[] }[] = [];
  for (const step of definition.steps) {
    lists.push({ where: step.id, fields: step.fields });
    for (const field of step.fields) if (field.fields) lists.push({ where: `${step.id}/${field.path}`, fields: field.fields });
  }
  return lists;
}

function conditionField(condition: Condition | undefined): string | null {
  return condition && 'field' in condition ? condition.field : null;
}

/** The definition is read by the client as it is: these checks catch an edit it could not render. */
describe('the intake definition as the client reads it', () => {
  it('has only field types, option lists and rules the client knows', () => {
    for (const { where, fields } of everyFieldList()) {
      for (const field of fields) {
        expect(knownTypes, `${where} ${field.path}`).toContain(field.type);
        expect(field.label.ja.trim(), field.path).not.toBe('');
        expect(field.label.en.trim(), field.path).not.toBe('');
        const choice = singleChoiceTypes.has(field.type) || multiChoiceTypes.has(field.type);
        if (choice) {
          const names = typeof field.options === 'string' ? [field.options] : Object.values(field.options ?? {});
          expect(names.length, field.path).toBeGreaterThan(0);
          for (const name of names) expect(definition.options[name], `${field.path} options ${name}`).toBeDefined();
          if (typeof field.options === 'object') expect(field.options.default, field.path).toBeDefined();
        }
        if (field.rule !== undefined) expect(definition.rules[field.rule], field.path).toBeDefined();
        if (field.type === 'repeater') {
          expect(field.fields?.length, field.path).toBeGreaterThan(0);
          expect(field.addLabel, field.path).toBeDefined();
        }
      }
    }
  });

  it('names as `other` only fields of the same step (or item), in conditions also those of an earlier step', () => {
    for (const { where, fields } of everyFieldList()) {
      const paths = fields.map((field) => field.path);
      const stepIndex = definition.steps.findIndex((step) => step.fields === fields);
      const earlier = definition.steps.slice(0, Math.max(0, stepIndex)).flatMap((step) => step.fields.map((field) => field.path));
      for (const field of fields) {
        if (field.other !== undefined) expect(paths, `${where} ${field.path} other`).toContain(field.other);
        for (const referred of [conditionField(field.when), conditionField(field.requiredWhen)]) {
          if (referred !== null) expect([...paths, ...earlier], `${where} ${field.path}`).toContain(referred);
        }
      }
      // An "other" text belongs to one field. (It is shown only while that field's answer holds
      // the option "other"; a list without that option never shows it.)
      for (const otherPath of otherParents(fields).keys()) expect(paths).toContain(otherPath);
    }
  });

  it('compiles every rule pattern as the client uses it (Unicode); a rule without one names a known check', () => {
    for (const [name, rule] of Object.entries(definition.rules)) {
      if (rule.pattern === undefined) expect(rule.check, name).toBe('phone');
      else expect(() => new RegExp(rule.pattern ?? '', 'u'), name).not.toThrow();
      expect(rule.message.ja, name).not.toBe('');
      expect(rule.message.en, name).not.toBe('');
    }
  });

  it('has date bounds the client can resolve', () => {
    for (const { fields } of everyFieldList()) {
      for (const field of fields.filter((candidate) => candidate.type === 'date')) {
        for (const bound of [field.after, field.before]) {
          if (bound !== undefined) expect(resolveDateBound(bound, '2025-03-05'), field.path).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        }
      }
    }
  });

  it('gives every step a route of the route table, and multi-option types a legend', () => {
    const booking = createRoutesFromElements(appRoutes)[0]?.children?.[0]?.children?.find((route) => route.path === '/b')?.children ?? [];
    expect(booking.length).toBeGreaterThan(0);
    const paths = booking.map((route) => route.path ?? '/b');
    for (const step of definition.steps) expect(paths, step.id).toContain(step.route);
    expect([...groupTypes].sort()).toEqual(['checkbox', 'radio', 'repeater', 'scale']);
  });

  it('has a consent text in both languages for each version', () => {
    for (const [version, text] of Object.entries(definition.consent)) {
      for (const part of [text.title, text.purpose, text.agree]) {
        expect(part.ja, version).not.toBe('');
        expect(part.en, version).not.toBe('');
      }
    }
  });
});
