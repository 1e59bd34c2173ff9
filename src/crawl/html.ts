/**
 * What a crawler reads in an HTML page, with htmlparser2's streaming tokenizer (chunks in, no
 * DOM): followable links and images, and what the page says about itself, read by the head rules
 * that `generate DIR` and the audit use too (../html/page-head.ts): `<base href>`, canonical,
 * robots meta, hreflang alternates, its own date and its own redirect. Links resolve at the end,
 * against the page URL and its `<base href>` (which applies to the whole document even when it
 * comes after a link).
 */
import { Parser } from 'htmlparser2';
import type { Alternate } from '../core/entry.js';
import type { ClientRedirect } from '../html/client-redirect.js';
import type { RobotsDirectives } from '../html/directives.js';
import { decoderFor, everyHandler, PARSER_OPTIONS, type TagHandler } from '../html/one-pass.js';
import { documentBase, pageHeadOf, pageHeadReader, relTokens } from '../html/page-head.js';
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
  /** When the page says it last changed, as written (`article:modified_time`, JSON-LD or microdata `dateModified`). */
  modified?: string;
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
  const head = pageHeadReader();
  const links: string[] = [];
  const images: string[] = [];
  const own: TagHandler = {
    onopentag(name, attributes) {
      if (name === 'a') {
        if (attributes.href !== undefined && !relTokens(attributes.rel).includes('nofollow'))
          links.push(attributes.href);
      } else if (name === 'img') {
        if (attributes.src) images.push(attributes.src);
        if (attributes.srcset) images.push(...srcsetUrls(attributes.srcset));
      }
    },
  };
  return {
    handler: everyHandler([head.handler, own]),
    facts() {
      const facts = head.facts(true);
      const page = pageHeadOf(facts, pageUrl);
      const base = documentBase(facts, pageUrl);
      const resolveAll = (list: string[]) =>
        list.map((href) => resolve(href, base)).filter((u): u is string => u !== undefined);
      return {
        links: resolveAll(links),
        canonicals: page.canonicals,
        alternates: page.alternates,
        images: [...new Set(resolveAll(images))],
        directives: page.directives,
        ...(page.clientRedirect === undefined ? {} : { clientRedirect: page.clientRedirect }),
        ...(page.modified === undefined ? {} : { modified: page.modified }),
      };
    },
  };
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
