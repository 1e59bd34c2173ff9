/**
 * What the head of an HTML page says about the page itself: its robots directives (read by the
 * rules of ./directives.ts, as the crawler reads them) and its canonical URLs, resolved against
 * the page URL and `<base href>`. Reading stops at `<body>`, so a large page costs only its head.
 */
import { Parser } from 'htmlparser2';
import { addDirectiveList, isHonouredMetaName, noDirectives, type RobotsDirectives } from './directives.js';

export interface PageHead {
  directives: RobotsDirectives;
  /** Every distinct `<link rel="canonical">` target, absolute, without a fragment. */
  canonicals: string[];
}

/** Reads the head of the page at `pageUrl` from its UTF-8 bytes. */
export async function readPageHead(
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  pageUrl: string,
): Promise<PageHead> {
  const directives = noDirectives();
  const canonicalHrefs: string[] = [];
  let baseHref: string | undefined;
  let inBody = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'body') {
          inBody = true;
          parser.pause(); // what follows says nothing about the page's head
        } else if (name === 'meta' && attributes.name !== undefined && isHonouredMetaName(attributes.name)) {
          addDirectiveList(directives, attributes.content ?? '');
        } else if (name === 'base' && baseHref === undefined && attributes.href !== undefined) {
          baseHref = attributes.href;
        } else if (
          name === 'link' &&
          attributes.href !== undefined &&
          relTokens(attributes.rel).includes('canonical')
        ) {
          canonicalHrefs.push(attributes.href);
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of chunks) {
    parser.write(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    if (inBody) break;
  }
  if (!inBody) parser.end(decoder.decode());
  const base = resolve(baseHref ?? '', pageUrl) ?? pageUrl;
  const canonicals = canonicalHrefs.map((href) => resolve(href, base)).filter((url) => url !== undefined);
  return { directives, canonicals: [...new Set(canonicals)] };
}

function relTokens(value: string | undefined): string[] {
  return (value ?? '').toLowerCase().split(/\s+/).filter(Boolean);
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
