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

/**
 * `source:line:column: severity CODE message`, the one-line form printed on stderr; its values
 * come from outside, so control characters in it are shown escaped (terminal.ts).
 */
export function formatDiagnostic(d: Diagnostic, source = d.source): string {
  const place = [source, d.line, d.column].filter((part) => part !== undefined && part !== '').join(':');
  return forTerminal(
    `${place ? `${place}: ` : ''}${d.severity} ${d.code} ${d.message}${d.url && !d.message.includes(d.url) ? ` (${d.url})` : ''}`,
  );
}
