/**
 * What the head of an HTML page says about the page itself: its robots directives (read by the
 * rules of ./directives.ts, as the crawler reads them), its canonical URLs and hreflang alternates,
 * resolved against the page URL and `<base href>`, and when it says it last changed
 * (`article:modified_time`, or a JSON-LD `dateModified`). Reading stops at `<body>`, so a large
 * page costs only its head; asked to, it reads on through the body for JSON-LD blocks only, which
 * may stand anywhere in a page. Directives and links in the body are never believed.
 */
import { Parser } from 'htmlparser2';
import type { Alternate } from '../core/entry.js';
import { addDirectiveList, isHonouredMetaName, noDirectives, type RobotsDirectives } from './directives.js';

export interface PageHead {
  directives: RobotsDirectives;
  /** Every distinct `<link rel="canonical">` target, absolute, without a fragment. */
  canonicals: string[];
  /** `<link rel="alternate" hreflang href>` of the head, absolute, without a fragment, each pair once. */
  alternates: Alternate[];
  /**
   * When the page says it last changed, as written: `<meta property="article:modified_time">`
   * (or `og:updated_time`), else the first JSON-LD `dateModified`.
   */
  modified?: string;
}

export interface PageHeadOptions {
  /** Read on past `<body>` for JSON-LD blocks (default false: stop at `<body>`). */
  wholeDocument?: boolean | undefined;
}

/** Meta properties that carry the page's own modification time (Open Graph article, and og:). */
const MODIFIED_PROPERTIES = new Set(['article:modified_time', 'og:updated_time']);

/** The text of one JSON-LD block kept for reading; a larger block is skipped, not held. */
const MAX_JSON_LD_CHARS = 256 * 1024;

/** Reads the head of the page at `pageUrl` from its UTF-8 bytes. */
export async function readPageHead(
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  pageUrl: string,
  options: PageHeadOptions = {},
): Promise<PageHead> {
  const directives = noDirectives();
  const canonicalHrefs: string[] = [];
  const alternateHrefs: Alternate[] = [];
  let baseHref: string | undefined;
  let metaModified: string | undefined;
  let jsonLdModified: string | undefined;
  /** The text of the JSON-LD block being read; undefined outside one. */
  let jsonLd: string | undefined;
  let inBody = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'script') {
          if (isJsonLd(attributes.type) && jsonLdModified === undefined) jsonLd = '';
        } else if (inBody) {
          return;
        } else if (name === 'body') {
          inBody = true;
          if (!options.wholeDocument) parser.pause(); // what follows says nothing about the page's head
        } else if (name === 'meta') {
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
        if (jsonLd === undefined) return;
        jsonLd = jsonLd.length + text.length > MAX_JSON_LD_CHARS ? undefined : jsonLd + text;
      },
      onclosetag(name) {
        if (name !== 'script' || jsonLd === undefined) return;
        jsonLdModified ??= dateModifiedOf(jsonLd);
        jsonLd = undefined;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  const decoder = new TextDecoder('utf-8');
  let stopped = false;
  for await (const chunk of chunks) {
    parser.write(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    if (inBody && !options.wholeDocument) {
      stopped = true;
      break;
    }
  }
  if (!stopped) parser.end(decoder.decode());
  const base = resolve(baseHref ?? '', pageUrl) ?? pageUrl;
  const canonicals = canonicalHrefs.map((href) => resolve(href, base)).filter((url) => url !== undefined);
  const modified = metaModified ?? jsonLdModified;
  return {
    directives,
    canonicals: [...new Set(canonicals)],
    alternates: distinctAlternates(alternateHrefs, base),
    ...(modified === undefined ? {} : { modified }),
  };
}

function relTokens(value: string | undefined): string[] {
  return (value ?? '').toLowerCase().split(/\s+/).filter(Boolean);
}

function isJsonLd(type: string | undefined): boolean {
  return type?.split(';')[0]?.trim().toLowerCase() === 'application/ld+json';
}

/**
 * The first `dateModified` of a JSON-LD block: of its top object, of an array of objects, or of an
 * object of its `@graph` (where Yoast and other CMSs put the page). Undefined when the block is
 * not JSON or says no such thing.
 */
function dateModifiedOf(text: string): string | undefined {
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
  try {
    const url = new URL(href.trim(), base);
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}
