/**
 * What the head of an HTML page says about the page itself: its robots directives (read by the
 * rules of ./directives.ts, as the crawler reads them), its canonical URLs and hreflang alternates,
 * resolved against the page URL and `<base href>`, and when it says it last changed
 * (`article:modified_time`, a JSON-LD `dateModified`, or a microdata one in the body, as
 * Docusaurus writes its "Last updated on" date). Reading stops at `</head>` or `<body>`, so a large
 * page costs only its head; asked to, it reads on through the body for those dates, which may
 * stand anywhere in a page. Directives and links in the body are never believed.
 *
 * It also says what a page is to a visitor: its title (`<title>`, and the first `<h1>` or `<h2>`), and
 * whether it only sends the browser elsewhere (a meta refresh, or a script, found by the one
 * detector of ./client-redirect.ts). For those it may read a bounded prefix of the body
 * (`bodyChars`): a redirect stub's script and a page's first heading come early.
 */
import type { Alternate } from '../core/entry.js';
import { ClientRedirectScanner, type ClientRedirect } from './client-redirect.js';
import { addDirectiveList, isHonouredMetaName, noDirectives, type RobotsDirectives } from './directives.js';
import { decoderFor, everyHandler, loadHtmlParser, PARSER_OPTIONS, type TagHandler } from './one-pass.js';
import { PageTitles } from './page-titles.js';

export interface PageHead {
  directives: RobotsDirectives;
  /** Every distinct `<link rel="canonical">` target, absolute, without a fragment. */
  canonicals: string[];
  /** `<link rel="alternate" hreflang href>` of the head, absolute, without a fragment, each pair once. */
  alternates: Alternate[];
  /**
   * When the page says it last changed, as written: `<meta property="article:modified_time">`
   * (or `og:updated_time`), else the first JSON-LD `dateModified`, else the `datetime` (or
   * `content`) of the first element of the body with `itemprop="dateModified"`.
   */
  modified?: string;
  /** The language of the page, as `<html lang>` says it. */
  lang?: string;
  /** The text of `<title>`, whitespace collapsed; absent when empty or missing (./page-titles.ts). */
  title?: string;
  /** The text of the first `<h1>`, else `<h2>`, read (in the body prefix read), whitespace collapsed. */
  heading?: string;
  /** The redirect the page makes itself (meta refresh in the head, inline script), its target resolved. */
  clientRedirect?: ClientRedirect;
  /**
   * Present (true) when the whole document was read and its body holds no words outside scripts:
   * a page that shows nothing.
   */
  showsNothing?: true;
}

export interface PageHeadOptions {
  /** Read on past `<body>` for JSON-LD blocks (default false: stop at `<body>`). */
  wholeDocument?: boolean | undefined;
  /**
   * Read on past `<body>` until this many characters of the document have been read in all, for
   * the first `<h1>` and a body that is only a redirect script (default 0: stop at `<body>`).
   */
  bodyChars?: number | undefined;
  /** The `charset` of the page's Content-Type (default UTF-8; an unknown label falls back to UTF-8). */
  charset?: string | undefined;
  /**
   * Another reader told every token this reading meets, in the same pass of the tokenizer (see
   * ./one-pass.ts): with `wholeDocument`, every token of the page.
   */
  alongside?: TagHandler | undefined;
}

/** Meta properties that carry the page's own modification time (Open Graph article, and og:). */
export const MODIFIED_PROPERTIES = new Set(['article:modified_time', 'og:updated_time']);

/** The text of one JSON-LD block kept for reading; a larger block is skipped, not held. */
export const MAX_JSON_LD_CHARS = 256 * 1024;

/** What a reader of the head found, as written: {@link pageHeadOf} resolves it into a PageHead. */
export interface HeadFacts {
  directives: RobotsDirectives;
  canonicalHrefs: string[];
  alternateHrefs: Alternate[];
  baseHref: string | undefined;
  modified: string | undefined;
  lang: string | undefined;
  title: string | undefined;
  heading: string | undefined;
  redirect: ClientRedirect | undefined;
  showsNothing: boolean;
}

/** The PageHead of what a reader found: URLs resolved against the page and its `<base href>`. */
export function pageHeadOf(facts: HeadFacts, pageUrl: string): PageHead {
  const { directives, title, heading, lang, modified, redirect } = facts;
  const base = documentBase(facts, pageUrl);
  const canonicals = facts.canonicalHrefs.map((href) => resolve(href, base)).filter((url) => url !== undefined);
  const target = redirect === undefined ? undefined : resolve(redirect.href, base);
  return {
    directives,
    canonicals: [...new Set(canonicals)],
    alternates: distinctAlternates(facts.alternateHrefs, base),
    ...(modified === undefined ? {} : { modified }),
    ...(lang === undefined ? {} : { lang }),
    ...(title ? { title } : {}),
    ...(heading ? { heading } : {}),
    ...(redirect === undefined || target === undefined ? {} : { clientRedirect: { ...redirect, href: target } }),
    ...(facts.showsNothing ? { showsNothing: true as const } : {}),
  };
}

/**
 * The URL a page's hrefs resolve against: its `<base href>` (which applies to the whole document,
 * even when it comes after a link), else the page's own URL.
 */
export function documentBase(facts: Pick<HeadFacts, 'baseHref'>, pageUrl: string): string {
  return (facts.baseHref === undefined ? undefined : resolve(facts.baseHref, pageUrl)) ?? pageUrl;
}

/**
 * The head rules as a reader of a page's tokens (see ./one-pass.ts), for a caller that runs the
 * tokenizer itself: `facts()` once the tokens it wants have come. `onBody` is told when the body
 * starts (a `<body>` tag, or the end of the head), so that a reader of heads alone can stop.
 */
export function pageHeadReader(onBody?: () => void): {
  handler: TagHandler;
  /** True once the body has started. */
  readonly inBody: boolean;
  /** What was read; `wholeRead` when the document was read to its end (only then can a page show nothing). */
  facts: (wholeRead: boolean) => HeadFacts;
} {
  const directives = noDirectives();
  const canonicalHrefs: string[] = [];
  const alternateHrefs: Alternate[] = [];
  let baseHref: string | undefined;
  let metaModified: string | undefined;
  let jsonLdModified: string | undefined;
  let microdataModified: string | undefined;
  /** The text of the JSON-LD block being read; undefined outside one. */
  let jsonLd: string | undefined;
  let inBody = false;
  const redirects = new ClientRedirectScanner();
  let inNoscript = false;
  const titles = new PageTitles();
  let lang: string | undefined;
  let words = false;
  /** Inside elements whose text is not shown (script, style, template, noscript). */
  let hidden = 0;
  const bodyStarts = () => {
    inBody = true;
    onBody?.(); // what follows says nothing about the page's head
  };
  const handler: TagHandler = {
    onopentag(name, attributes) {
      if (inBody && attributes.itemprop !== undefined) microdataModified ??= microdataDate(attributes);
      if (name === 'html') {
        lang ??= attributes.lang?.trim() || undefined;
      } else if (name === 'script') {
        hidden++;
        if (isJsonLd(attributes.type) && jsonLdModified === undefined) jsonLd = '';
        else redirects.scriptOpened(attributes);
      } else if (name === 'noscript') {
        inNoscript = true;
        hidden++;
      } else if (name === 'style' || name === 'template') {
        hidden++;
      } else if (name === 'title' || name === 'h1' || name === 'h2') {
        titles.opened(name, !inBody);
      } else if (inBody) {
        return;
      } else if (name === 'body') {
        bodyStarts();
      } else if (name === 'meta') {
        if (!inNoscript) redirects.meta(attributes);
        if (attributes.name !== undefined && isHonouredMetaName(attributes.name))
          addDirectiveList(directives, attributes.content ?? '');
        const property = attributes.property?.trim().toLowerCase();
        if (metaModified === undefined && property !== undefined && MODIFIED_PROPERTIES.has(property))
          metaModified = attributes.content?.trim() || undefined;
      } else if (name === 'base' && baseHref === undefined && attributes.href !== undefined) {
        baseHref = attributes.href;
      } else if (name === 'link' && attributes.href !== undefined) {
        const rel = relTokens(attributes.rel);
        if (rel.includes('canonical')) canonicalHrefs.push(attributes.href);
        if (rel.includes('alternate') && attributes.hreflang?.trim())
          alternateHrefs.push({ hreflang: attributes.hreflang.trim(), href: attributes.href });
      }
    },
    ontext(text) {
      titles.text(text);
      if (redirects.inScript) redirects.text(text);
      else if (inBody && hidden === 0 && !words && /\S/.test(text)) words = true;
      if (jsonLd === undefined) return;
      jsonLd = jsonLd.length + text.length > MAX_JSON_LD_CHARS ? undefined : jsonLd + text;
    },
    onclosetag(name) {
      // What follows the head is the body, with or without a <body> tag (redirect stubs have none).
      if (name === 'head' && !inBody) bodyStarts();
      if (name === 'noscript') inNoscript = false;
      if (name === 'noscript' || name === 'style' || name === 'template' || name === 'script')
        hidden = Math.max(0, hidden - 1);
      titles.closed(name);
      if (name !== 'script') return;
      redirects.scriptClosed();
      if (jsonLd === undefined) return;
      jsonLdModified ??= dateModifiedOf(jsonLd);
      jsonLd = undefined;
    },
  };
  return {
    handler,
    get inBody() {
      return inBody;
    },
    facts: (wholeRead) => ({
      directives,
      canonicalHrefs,
      alternateHrefs,
      baseHref,
      modified: metaModified ?? jsonLdModified ?? microdataModified,
      lang,
      title: titles.title,
      heading: titles.heading,
      redirect: redirects.redirect,
      showsNothing: wholeRead && !words,
    }),
  };
}

/** Reads the head of the page at `pageUrl` from its bytes (UTF-8 unless `options.charset` says otherwise). */
export async function readPageHead(
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  pageUrl: string,
  options: PageHeadOptions = {},
): Promise<PageHead> {
  const bodyChars = options.bodyChars ?? 0;
  let charsRead = 0;
  const wantsBody = (): boolean => options.wholeDocument === true || charsRead < bodyChars;
  const Parser = await loadHtmlParser();
  const head = pageHeadReader(() => {
    if (!wantsBody()) parser.pause();
  });
  const parser = new Parser(
    options.alongside === undefined ? head.handler : everyHandler([head.handler, options.alongside]),
    PARSER_OPTIONS,
  );
  const decoder = decoderFor(options.charset);
  let stopped = false;
  for await (const chunk of chunks) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    charsRead += text.length;
    parser.write(text);
    if (head.inBody && !wantsBody()) {
      stopped = true;
      break;
    }
  }
  if (!stopped) parser.end(decoder.decode());
  return pageHeadOf(head.facts(!stopped), pageUrl);
}

/** The date of a microdata `dateModified` property (a `<time datetime>`, a `<meta content>`). */
function microdataDate(attributes: Record<string, string>): string | undefined {
  if (!attributes.itemprop!.split(/\s+/).includes('dateModified')) return undefined;
  return (attributes.datetime ?? attributes.content)?.trim() || undefined;
}

/** The tokens of a `rel` attribute, lower-cased. */
export function relTokens(value: string | undefined): string[] {
  return (value ?? '').toLowerCase().split(/\s+/).filter(Boolean);
}

/** True for a `<script type>` of JSON-LD. */
export function isJsonLd(type: string | undefined): boolean {
  return type?.split(';')[0]?.trim().toLowerCase() === 'application/ld+json';
}

/**
 * The first `dateModified` of a JSON-LD block: of its top object, of an array of objects, or of an
 * object of its `@graph` (where Yoast and other CMSs put the page). Undefined when the block is
 * not JSON or says no such thing.
 */
export function dateModifiedOf(text: string): string | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const nodes = Array.isArray(data) ? data : [data];
  for (const node of nodes) {
    if (node === null || typeof node !== 'object') continue;
    const record = node as Record<string, unknown>;
    const graph = Array.isArray(record['@graph']) ? (record['@graph'] as unknown[]) : [];
    for (const candidate of [record, ...graph]) {
      const value = (candidate as Record<string, unknown> | null)?.dateModified;
      if (typeof value === 'string' && value.trim() !== '') return value.trim();
    }
  }
  return undefined;
}

function distinctAlternates(alternates: readonly Alternate[], base: string): Alternate[] {
  const seen = new Set<string>();
  const result: Alternate[] = [];
  for (const { hreflang, href } of alternates) {
    const url = resolve(href, base);
    const key = `${hreflang.toLowerCase()} ${url}`;
    if (url === undefined || seen.has(key)) continue;
    seen.add(key);
    result.push({ hreflang, href: url });
  }
  return result;
}

/** `href` resolved against `base`, without its fragment; undefined when it is not a URL. */
function resolve(href: string, base: string): string | undefined {
  const plain = plainPathUrl(href, base);
  if (plain !== undefined) return plain;
  try {
    const url = new URL(href.trim(), base);
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

/**
 * A path of characters the URL parser keeps as they are (no `%`, `?`, `#`, white space or dot
 * segment), from the root of the base's origin or as an absolute URL on it.
 */
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

/** The last base origin checked (`https://host`), and whether the URL parser writes it as it stands. */
let lastOrigin = '';
let lastOriginPlain = false;

/**
 * The resolution of the commonest hrefs of a build's heads (`/docs/page/`, and absolute URLs on the
 * site) by string, as the URL parser would write it: a URL object each cost more than the rest of
 * reading a head. Undefined when the parser must decide.
 */
function plainPathUrl(href: string, base: string): string | undefined {
  const authority = base.indexOf('//');
  const rootAt = authority < 0 ? -1 : base.indexOf('/', authority + 2);
  if (rootAt < 0) return undefined;
  const origin = base.slice(0, rootAt);
  let path: string;
  if (href.startsWith('/') && !href.startsWith('//')) path = href;
  else if (href.startsWith(origin) && href.charCodeAt(origin.length) === 47 /* / */) path = href.slice(origin.length);
  else return undefined;
  if (!PLAIN_PATH.test(path) || DOT_SEGMENT.test(path)) return undefined;
  if (origin !== lastOrigin) {
    lastOrigin = origin;
    lastOriginPlain = /^https?:\/\//.test(origin) && URL.canParse(origin) && new URL(origin).origin === origin;
  }
  return lastOriginPlain ? origin + path : undefined;
}
