/**
 * Diagnostics are data: a stable code from the rule catalog (catalog.ts, docs/rules.md), a
 * severity, a message that says what is wrong and how to fix it, and where. Every part of
 * sitemapkit that finds a problem reports it in this shape.
 */
import { RULES } from './catalog.js';
import { forTerminal } from './terminal.js';

/**
 * How bad a problem is: an error breaks a rule engines enforce, a warning is likely wrong, an info
 * is worth knowing.
 */
export type Severity = 'error' | 'warning' | 'info';

/** A problem found in a document or an input, with the code of the rule catalog and where it is. */
export interface Diagnostic {
  code: string;
  severity: Severity;
  message: string;
  /** 1-based line and column in the document, when the problem has a place. */
  line?: number;
  column?: number;
  /** The `loc` of the entry the problem belongs to. */
  url?: string;
  /** The document (path or URL) the problem was found in, when several are read. */
  source?: string;
}

/** A diagnostic for a catalog code, with the catalog's severity unless one is given. */
export function diagnostic(
  code: string,
  message: string,
  where: Omit<Diagnostic, 'code' | 'severity' | 'message'> & { severity?: Severity } = {},
): Diagnostic {
  const { severity, ...place } = where;
  const rule = RULES[code];
  if (!rule && severity === undefined) throw new Error(`unknown diagnostic code ${code}`);
  return { code, severity: severity ?? rule!.severity, message, ...place };
}

/** Characters of one value (a word of a message, a URL) a human line shows; longer ones are elided in the middle. */
export const MAX_SHOWN_VALUE = 120;

/** `text` whole when it is short, else its start and its end around an ellipsis (the full value stays in --json). */
export function elideMiddle(text: string, max = MAX_SHOWN_VALUE): string {
  if (text.length <= max) return text;
  const head = Math.ceil((max - 1) / 2);
  return `${text.slice(0, head)}…${text.slice(text.length - (max - 1 - head))}`;
}

/** Runs of characters without a space longer than a value may be shown. */
const LONG_RUN = new RegExp(`\\S{${MAX_SHOWN_VALUE + 1},}`, 'g');

/** `message` with every value longer than MAX_SHOWN_VALUE elided in the middle. */
export function elideValues(message: string): string {
  return message.length > MAX_SHOWN_VALUE ? message.replace(LONG_RUN, (run) => elideMiddle(run)) : message;
}

/** How a diagnostic line is drawn: the source to name, and colours for the severity and code. */
export interface DiagnosticLineOptions {
  source?: string | undefined;
  paint?: ((severity: Severity, text: string) => string) | undefined;
}

/**
 * `source:line:column: severity CODE message (url)`: the one human form of a problem, in every
 * command, with each long value elided in the middle so that one line stays one line.
 */
export function formatDiagnostic(d: Diagnostic, options: string | DiagnosticLineOptions = {}): string {
  const { source = d.source, paint } = typeof options === 'string' ? { source: options } : options;
  // A place with a line always has a column (1, the line's start, when the problem has none of its own).
  const column = d.line === undefined ? undefined : (d.column ?? 1);
  const place = forTerminal([source, d.line, column].filter((part) => part !== undefined && part !== '').join(':'));
  // Values from outside (URLs, a server's words) may hold control characters: shown escaped.
  const message = forTerminal(
    d.message.length > MAX_SHOWN_VALUE ? d.message.replace(LONG_RUN, (run) => elideMiddle(run)) : d.message,
  );
  const url = d.url && !d.message.includes(d.url) ? ` (${forTerminal(elideMiddle(d.url))})` : '';
  const label = `${d.severity} ${d.code}`;
  return `${place ? `${elideMiddle(place, MAX_SHOWN_VALUE + 12)}: ` : ''}${paint ? paint(d.severity, label) : label} ${message}${url}`;
}
