/**
 * Redirects a page makes itself, once a browser has it: a meta refresh with a
 * URL, or an inline script that sends the window elsewhere. Read from the page's text; scripts
 * are never run. The one detector of client-side redirects: the head rules (./page-head.ts, which
 * the crawler and the audit read pages by) and the build folder's head scanner (./head-scanner.ts)
 * both feed a ClientRedirectScanner with the tags their own tokenizer meets.
 */

/** A page's own redirect, its target as written in the page (resolved later, against the base). */
export type ClientRedirect =
  { kind: 'meta-refresh'; href: string; delaySeconds: number } | { kind: 'js-redirect'; href: string; how: string };

/**
 * The longest refresh delay of a redirect stub. A page that refreshes to another URL after longer
 * is read first ("this page has moved; you will be taken there in 10 seconds") and is a page of
 * its own, as search engines treat it.
 */
export const MAX_STUB_REFRESH_SECONDS = 5;

/** What a refresh declaration asks for: a reload of the same page, or another URL. */
export type Refresh = { delaySeconds: number; href?: string };

/** An ASCII digit (a character code; NaN past the end is none). */
const isDigit = (code: number) => code >= 48 && code <= 57;

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
  while (isDigit(content.charCodeAt(i))) i++;
  const digits = content.slice(digitsStart, i);
  if (digits === '' && content[i] !== '.') return undefined;
  while (isDigit(content.charCodeAt(i)) || content[i] === '.') i++;
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
 * The part of NAVIGATION that needs no lexing: `location` or `location.href` assigned, or its
 * replace() / assign() called. Every text where findScriptRedirect finds a navigation matches it;
 * most scripts that merely read `location` (`window.location.protocol`, a check in a page's head
 * that every rustdoc page has) do not.
 */
const MAY_NAVIGATE = /location(?:\s*\.\s*href)?\s*(?:=(?!=)|\.\s*(?:replace|assign)\s*\()/;

/**
 * False when no script of `text` (a page's source, or part of it) can hold a navigation that
 * findScriptRedirect would find: such a page need not be parsed for one. True says only "maybe".
 */
export function mayNavigate(text: string): boolean {
  return MAY_NAVIGATE.test(text);
}

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

/**
 * How much of one inline script is searched for a redirect. Redirect scripts are short; a large
 * inline bundle is not kept whole in memory for it.
 */
const MAX_SCRIPT_CHARS = 64 * 1024;

/**
 * Finds a page's own redirect from the tags of a streaming HTML parser: the first refresh
 * declaration of the head decides (as in browsers, even a mere reload), one inside `<noscript>`
 * counts for nothing, and the first inline script that navigates is the script's redirect. The
 * target is as written: the caller resolves it against the page and its `<base href>`.
 */
export class ClientRedirectScanner {
  private refreshSeen = false;
  private found: ClientRedirect | undefined;
  /** The text of the inline script being read, up to MAX_SCRIPT_CHARS; undefined outside one. */
  private scriptText: string | undefined;

  /** A `<meta>` of the head (outside `<noscript>`). */
  meta(attributes: Readonly<Record<string, string | undefined>>): void {
    if (this.refreshSeen || attributes['http-equiv']?.trim().toLowerCase() !== 'refresh') return;
    const refresh = parseRefresh(attributes.content ?? '');
    if (refresh === undefined) return;
    this.refreshSeen = true;
    if (refresh.href !== undefined && this.found === undefined)
      this.found = { kind: 'meta-refresh', href: refresh.href, delaySeconds: refresh.delaySeconds };
  }

  /** A `<script>` opens: an inline one of a type browsers run is read. */
  scriptOpened(attributes: Readonly<Record<string, string | undefined>>): void {
    if (this.found === undefined && attributes.src === undefined && isJavaScriptType(attributes.type))
      this.scriptText = '';
  }

  /** Text of the document (only a script's counts). */
  text(text: string): void {
    if (this.scriptText !== undefined && this.scriptText.length < MAX_SCRIPT_CHARS)
      this.scriptText += text.slice(0, MAX_SCRIPT_CHARS - this.scriptText.length);
  }

  /** A `</script>` closes. */
  scriptClosed(): void {
    if (this.scriptText === undefined) return;
    const navigation = findScriptRedirect(this.scriptText);
    this.scriptText = undefined;
    if (navigation !== undefined && this.found === undefined) this.found = { kind: 'js-redirect', ...navigation };
  }

  /** True while an inline script is being read (its text is code, not the page's words). */
  get inScript(): boolean {
    return this.scriptText !== undefined;
  }

  /** The page's first redirect, its target as written; undefined when it makes none. */
  get redirect(): ClientRedirect | undefined {
    return this.found;
  }
}
