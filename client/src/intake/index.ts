/**
 * The intake questionnaire logic, pure and shared in meaning with the server: the definition,
 * conditions and applicable steps, validation, dates, form/wire values and display.
 */
export * from './conditions';
export * from './dates';
export * from './definition';
export * from './format';
export * from './messages';
export * from './paths';
export * from './phone';
export * from './serverErrors';
export * from './validate';
export * from './values';
