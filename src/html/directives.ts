/**
 * Robots directives of a page: `<meta name="robots">` and the
 * `X-Robots-Tag` header, general or addressed to a search engine's bot. Comma-separated and
 * case-insensitive; `none` means both; when several sources disagree the most restrictive wins.
 */

export interface RobotsDirectives {
  noindex: boolean;
  nofollow: boolean;
}

/** Meta names and header prefixes taken as addressed to us: the general one and the engines'. */
const HONOURED_AGENTS = new Set(['robots', 'googlebot', 'bingbot']);

/** Directives that carry a value after a colon, so "name:" does not name a bot. */
const VALUED_DIRECTIVES = new Set(['unavailable_after', 'max-snippet', 'max-image-preview', 'max-video-preview']);

export function noDirectives(): RobotsDirectives {
  return { noindex: false, nofollow: false };
}

/** True when a `<meta name>` addresses us (robots, googlebot, bingbot). */
export function isHonouredMetaName(name: string): boolean {
  return HONOURED_AGENTS.has(name.trim().toLowerCase());
}

/** Adds the directives of one comma-separated list (a meta content) to `into`. */
export function addDirectiveList(into: RobotsDirectives, list: string): RobotsDirectives {
  for (const raw of list.split(',')) {
    const directive = raw.trim().toLowerCase();
    if (directive === 'noindex' || directive === 'none') into.noindex = true;
    if (directive === 'nofollow' || directive === 'none') into.nofollow = true;
  }
  return into;
}

/**
 * Adds one `X-Robots-Tag` header value. A value may start with a bot name ("googlebot: noindex");
 * values addressed to bots we do not honour are ignored.
 */
export function addRobotsHeader(into: RobotsDirectives, value: string): RobotsDirectives {
  const prefix = /^\s*([A-Za-z0-9_-]+)\s*:(.*)$/s.exec(value);
  if (prefix && !VALUED_DIRECTIVES.has(prefix[1]!.toLowerCase())) {
    return HONOURED_AGENTS.has(prefix[1]!.toLowerCase()) ? addDirectiveList(into, prefix[2]!) : into;
  }
  return addDirectiveList(into, value);
}
