/** ANSI colours for the terminal reports, one palette for all, and nothing when colour is off. */
import type { Severity } from '../core/diagnostics.js';

const STYLES = { error: '31', warning: '33', info: '36', ok: '32', dim: '2', bold: '1' } as const;

export type Style = keyof typeof STYLES;

/** How each severity is marked in front of a code. */
export const SEVERITY_MARK: Readonly<Record<Severity, string>> = { error: '✗', warning: '!', info: 'i' };

/** `paint(style, text)`: the text in that style when `color`, else as it is. */
export function painter(color: boolean): (style: Style, text: string) => string {
  return (style, text) => (color && text !== '' ? `\u001b[${STYLES[style]}m${text}\u001b[0m` : text);
}
