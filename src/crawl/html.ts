/**
 * What a crawler reads in an HTML page, with htmlparser2's streaming tokenizer (chunks in, no
 * DOM): followable links, `<base href>`, canonical, robots meta, hreflang alternates, images, and
 * the page's own redirect (meta refresh or inline script, see ../html/client-redirect.ts).
 * URLs are resolved at the end, against the page URL and its `<base href>` (which applies to the
 * whole document even when it comes after a link).
 */
import { Parser } from 'htmlparser2';
import type { Alternate } from '../core/entry.js';
import { ClientRedirectScanner, type ClientRedirect } from '../html/client-redirect.js';
import { addDirectiveList, isHonouredMetaName, noDirectives, type RobotsDirectives } from '../html/directives.js';
import { decoderFor, PARSER_OPTIONS, type TagHandler } from '../html/one-pass.js';
import { relTokens } from '../html/page-head.js';
import { srcsetUrls } from '../html/page-images.js';

export { srcsetUrls };

export interface PageFacts {
  /** Absolute targets of `<a href>` without rel="nofollow", in document order. */
  links: string[];
  /** Absolute targets of every `<link rel="canonical">` in the head. */
  canonicals: string[];
  /** `<link rel="alternate" hreflang>` in the head, absolute. */
  alternates: Alternate[];
  /** Absolute `<img src>` and `srcset` URLs, without duplicates. */
  images: string[];
  /** Directives of the robots meta tags in the head. */
  directives: RobotsDirectives;
  /** The first redirect the page makes itself, its target absolute; a reload is none. */
  clientRedirect?: ClientRedirect;
}

export interface HtmlReader {
  write(chunk: Uint8Array | string): void;
  end(): PageFacts;
}

/**
 * @param charset the `charset` of the Content-Type, when the server sent one (default UTF-8;
 *   an unknown label falls back to UTF-8)
 */
export function createHtmlReader(pageUrl: string, charset?: string): HtmlReader {
  const reader = pageFactsReader(pageUrl);
  const parser = new Parser(reader.handler, PARSER_OPTIONS);
  const decoder = decoderFor(charset);
  return {
    write(chunk) {
      parser.write(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    },
    end() {
      parser.write(decoder.decode());
      parser.end();
      return reader.facts();
    },
  };
}

/** What a crawler reads in a page, as a reader of its tokens (see ../html/one-pass.ts): `facts()` once they have all come. */
export function pageFactsReader(pageUrl: string): { handler: TagHandler; facts: () => PageFacts } {
  const raw = {
    links: [] as string[],
    canonicals: [] as string[],
    alternates: [] as Alternate[],
    images: [] as string[],
  };
  const directives = noDirectives();
  let baseHref: string | undefined;
  let inBody = false;
  let inNoscript = false;
  const redirects = new ClientRedirectScanner();

  const handler: TagHandler = {
    onopentag(name, attributes) {
      switch (name) {
        case 'body':
          inBody = true;
          break;
        case 'base':
          if (baseHref === undefined && attributes.href !== undefined) baseHref = attributes.href;
          break;
        case 'a':
          if (attributes.href !== undefined && !relTokens(attributes.rel).includes('nofollow'))
            raw.links.push(attributes.href);
          break;
        case 'img':
          if (attributes.src) raw.images.push(attributes.src);
          if (attributes.srcset) raw.images.push(...srcsetUrls(attributes.srcset));
          break;
        case 'link':
          if (!inBody && attributes.href !== undefined) readHeadLink(attributes, raw);
          break;
        case 'meta':
          if (!inBody && attributes.name !== undefined && isHonouredMetaName(attributes.name)) {
            addDirectiveList(directives, attributes.content ?? '');
          }
          if (!inBody && !inNoscript) redirects.meta(attributes);
          break;
        case 'noscript':
          inNoscript = true;
          break;
        case 'script':
          redirects.scriptOpened(attributes);
          break;
      }
    },
    ontext(text) {
      redirects.text(text);
    },
    onclosetag(name) {
      if (name === 'noscript') inNoscript = false;
      if (name === 'script') redirects.scriptClosed();
    },
  };

  return {
    handler,
    facts() {
      const base = resolve(baseHref ?? '', pageUrl) ?? pageUrl;
      const resolveAll = (list: string[]) =>
        list.map((href) => resolve(href, base)).filter((u): u is string => u !== undefined);
      const found = redirects.redirect;
      const target = found === undefined ? undefined : resolve(found.href, base);
      const clientRedirect = target === undefined ? undefined : { ...found!, href: target };
      return {
        links: resolveAll(raw.links),
        canonicals: resolveAll(raw.canonicals),
        alternates: raw.alternates.flatMap(({ hreflang, href }) => {
          const absolute = resolve(href, base);
          return absolute === undefined ? [] : [{ hreflang, href: absolute }];
        }),
        images: [...new Set(resolveAll(raw.images))],
        directives,
        ...(clientRedirect === undefined ? {} : { clientRedirect }),
      };
    },
  };
}

function readHeadLink(
  attributes: Record<string, string>,
  raw: { canonicals: string[]; alternates: Alternate[] },
): void {
  const rel = relTokens(attributes.rel);
  const href = attributes.href!;
  if (rel.includes('canonical')) raw.canonicals.push(href);
  if (rel.includes('alternate') && attributes.hreflang)
    raw.alternates.push({ hreflang: attributes.hreflang.trim(), href });
}

/** `href` resolved against `base`; undefined when it cannot be (a broken URL, or empty). */
function resolve(href: string, base: string): string | undefined {
  const text = href.trim();
  if (text === '') return base;
  try {
    return new URL(text, base).href;
  } catch {
    return undefined;
  }
}
