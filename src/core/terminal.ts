/**
 * Text from outside (a sitemap's line, a server's error body, a URL, a file name) made safe to
 * print on a terminal. A terminal obeys control characters wherever they come from: an escape
 * sequence in a hostile sitemap could clear the screen, move the cursor back over the real
 * verdict and print a fake "all valid", or set the window title; a carriage return overwrites
 * the line. Every human printer passes outside values through `forTerminal`, which shows each
 * such character as a visible escape (`\x1b`, `\r`, `\u202e`), as git and curl show unusual bytes.
 */

/**
 * C0 controls (newline and tab included: a value sits inside one line), DEL, C1 controls, and the
 * invisible marks that reorder text (bidirectional overrides and isolates), which can make a line
 * read other than it is.
 */
// eslint-disable-next-line no-control-regex -- finding the control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `text` with every control character shown as a visible escape; text without any is returned as it is. */
export function forTerminal(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, visible) : text;
}

/** Lines of our own making (a usage error and its advice) kept as lines; each made safe as forTerminal makes a value. */
export function linesForTerminal(text: string): string {
  return text.split('\n').map(forTerminal).join('\n');
}

function visible(char: string): string {
  const code = char.charCodeAt(0);
  return NAMED[char] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`);
}
