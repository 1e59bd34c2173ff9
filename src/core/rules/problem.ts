/**
 * What a rule checker answers: the value to keep, or none, and the problems it found. Checkers are
 * pure (no I/O, no clock: a rule that needs the time takes `now`), so the generator, the parser
 * and the validator can all ask the same question and get the same answer.
 */
import type { Severity } from '../diagnostics.js';

/** One broken rule: the catalog code, what is wrong and how to fix it, and the severity when it is not the catalog's. */
export interface RuleProblem {
  code: string;
  message: string;
  severity?: Severity;
  /** The field of the entry the problem is about, as a path ('alternates.2', 'videos.0.duration'). */
  path?: string;
}

/**
 * A field checker's answer. `value` is undefined when the field cannot be kept. Problems that come
 * with a value say how the text differed from what a sitemap must hold (whitespace around a URL, a
 * relative URL resolved, `Daily` read as `daily`): a sitemap reader reports them, a generator,
 * whose input need not be written in sitemap syntax, has nothing to report once it writes the value.
 */
export interface Checked<T> {
  value: T | undefined;
  problems: readonly RuleProblem[];
}

export const NO_PROBLEMS: readonly RuleProblem[] = Object.freeze([]);

export function problem(code: string, message: string, severity?: Severity): RuleProblem {
  return severity === undefined ? { code, message } : { code, message, severity };
}

/** The problem, about the field at `path`. */
export function at(path: string, found: RuleProblem): RuleProblem {
  return { ...found, path };
}

export function accepted<T>(value: T, problems: readonly RuleProblem[] = NO_PROBLEMS): Checked<T> {
  return { value, problems };
}

export function refused<T>(...problems: RuleProblem[]): Checked<T> {
  return { value: undefined, problems };
}

/** A value as it appears in a message: quoted, and shortened when long. */
export function shown(text: string, max = 80): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}
