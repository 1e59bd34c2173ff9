/** The colours of the terminal reports: one set of styles, one way to apply them. */
import type { Severity } from '../core/diagnostics.js';

const STYLES = { error: '31', warning: '33', info: '36', ok: '32', dim: '2', bold: '1' } as const;

/** A style of the reports: a severity's colour, green for what is fine, dim, bold. */
export type Style = keyof typeof STYLES;

/** How each severity is marked in front of a code. */
export const SEVERITY_MARK: Readonly<Record<Severity, string>> = { error: '✗', warning: '!', info: 'i' };

/** Paints text in a style with ANSI codes when `color` is on; otherwise (and for empty text) leaves it as it is. */
export function painter(color: boolean): (style: Style, text: string) => string {
  return (style, text) => (color && text !== '' ? `\u001b[${STYLES[style]}m${text}\u001b[0m` : text);
}
