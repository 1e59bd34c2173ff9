/**
 * The protocol's rules, one checker per field, shared by the generator (which refuses or repairs
 * what breaks them), the parser (which reads what it can and reports the rest) and the validator
 * (which judges what the parser kept). See docs/rules.md for the catalog of codes.
 */
export type { Checked, RuleProblem } from './problem.js';
export * from './iso-codes.js';
export * from './url.js';
export * from './dates.js';
export * from './core-fields.js';
export * from './hreflang.js';
export * from './image.js';
export * from './video.js';
export * from './news.js';
