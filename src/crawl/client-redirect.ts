/**
 * Redirects a page makes itself, once a browser has it: a meta refresh with a
 * URL, or an inline script that sends the window elsewhere. Read from the page's text; scripts
 * are never run.
 */

/** A page's own redirect, its target as written in the page (resolved later, against the base). */
export type ClientRedirect =
  { kind: 'meta-refresh'; href: string; delaySeconds: number } | { kind: 'js-redirect'; href: string; how: string };

/** What a refresh declaration asks for: a reload of the same page, or another URL. */
export type Refresh = { delaySeconds: number; href?: string };

const isSpace = (ch: string | undefined) => ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f';

/**
 * Parses the content of `<meta http-equiv="refresh">` as the HTML standard's declarative refresh
 * steps do: `5`, `0;url=x`, `0; URL='x'`, `5, url="x"`, `0; x`. A bare number is a reload (no
 * `href`); undefined when the content is not a refresh at all.
 */
export function parseRefresh(content: string): Refresh | undefined {
  let i = 0;
  const skipSpaces = () => {
    while (isSpace(content[i])) i++;
  };
  skipSpaces();
  const digitsStart = i;
  while (/[0-9]/.test(content[i] ?? '')) i++;
  const digits = content.slice(digitsStart, i);
  if (digits === '' && content[i] !== '.') return undefined;
  while (/[0-9.]/.test(content[i] ?? '')) i++;
  const delaySeconds = digits === '' ? 0 : Number(digits);
  if (i >= content.length) return { delaySeconds };
  if (content[i] !== ';' && content[i] !== ',' && !isSpace(content[i])) return undefined;
  skipSpaces();
  if (content[i] === ';' || content[i] === ',') i++;
  skipSpaces();
  if (i >= content.length) return { delaySeconds };
  // An optional "url =" prefix (any case); without it, the rest is the URL as it stands.
  const rest = content.slice(i);
  const prefix = /^url\s*=\s*/i.exec(rest);
  let href = prefix ? rest.slice(prefix[0].length) : rest;
  const quote = href[0] === '"' || href[0] === "'" ? href[0] : undefined;
  if (quote !== undefined) {
    href = href.slice(1);
    const end = href.indexOf(quote);
    if (end >= 0) href = href.slice(0, end);
  }
  return { delaySeconds, href };
}

/**
 * The navigation an inline script makes as soon as it runs, when it is plain to see: an
 * assignment to `location`, `location.href` (bare, or on `window`, `self`, `top` or `document`)
 * or a call of `location.replace()` / `location.assign()`, with a quoted literal URL (alone: not
 * `"/search?q=" + term`). Only
 * statements outside every `{ }` block count: inside one they sit in a function or an event
 * handler (a click sending the visitor on), which does not make the page a redirect. Computed
 * URLs, template literals and navigation from attributes (`onclick`) are not recognised.
 */
export function findScriptRedirect(script: string): { href: string; how: string } | undefined {
  const match = NAVIGATION.exec(topLevelCode(script));
  if (match === null) return undefined;
  const { target, assigned, call, called } = match.groups!;
  const name = target!.replace(/\s+/g, '');
  return { href: (assigned ?? called)!, how: call === undefined ? name : `${name}.${call}()` };
}

/** `location`, or `location.href`, not a property of some other object (an iframe's window). */
const LOCATION = String.raw`(?<target>(?<![\w$.])(?:(?:window|self|top|document)\s*\.\s*)?location(?:\s*\.\s*href)?)`;
const NAVIGATION = new RegExp(
  String.raw`${LOCATION}\s*(?:=(?!=)\s*(?<q1>["'])(?<assigned>(?:(?!\k<q1>)[^\\\n])*)\k<q1>(?=[ \t]*(?:[;,)\r\n]|$))|\.\s*(?<call>replace|assign)\s*\(\s*(?<q2>["'])(?<called>(?:(?!\k<q2>)[^\\\n])*)\k<q2>\s*\))`,
);

/**
 * The script with its comments and the insides of its `{ }` blocks blanked out (same length),
 * strings kept. A rough lexer: enough to tell top-level statements apart, not to parse.
 */
function topLevelCode(script: string): string {
  let code = '';
  let depth = 0;
  let i = 0;
  const keep = (end: number) => {
    const text = script.slice(i, end);
    code += depth === 0 ? text : ' '.repeat(text.length);
    i = end;
  };
  while (i < script.length) {
    const ch = script[i]!;
    if (ch === '"' || ch === "'" || ch === '`') {
      let end = i + 1;
      while (end < script.length && script[end] !== ch) end += script[end] === '\\' ? 2 : 1;
      keep(Math.min(end + 1, script.length));
    } else if (ch === '/' && (script[i + 1] === '/' || script[i + 1] === '*')) {
      const close = script[i + 1] === '/' ? script.indexOf('\n', i) : script.indexOf('*/', i + 2) + 2;
      const end = close < i + 2 ? script.length : close;
      code += ' '.repeat(end - i);
      i = end;
    } else {
      if (ch === '{') depth++;
      keep(i + 1);
      if (ch === '}') depth = Math.max(0, depth - 1);
    }
  }
  return code;
}

/** Script types a browser runs: none given, a JavaScript MIME type, or a module. */
export function isJavaScriptType(type: string | undefined): boolean {
  const value = (type ?? '').trim().toLowerCase();
  return value === '' || value === 'module' || /^(?:text|application)\/(?:x-)?(?:java|ecma)script$/.test(value);
}
