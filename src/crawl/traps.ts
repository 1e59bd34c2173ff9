/**
 * Spider traps: URL spaces that grow without end, such as an endless calendar (next month, for
 * ever), faceted filters and search pages (a query variant for every combination), or relative
 * links that nest a path deeper at every hop. Each rule stops one shape of trap at a documented
 * limit, and the URLs past it are left out with the reason (`trap`), never fetched:
 *
 * - more than `maxQueryVariants` query variants of one path fetched (`/search?q=…`, `/shop?color=…`);
 * - more than `maxPathSegments` segments in a path, or a run of segments repeated three times in a
 *   row (`/a/b/a/b/a/b/`: relative links resolved against themselves; Heritrix's rule);
 * - a chain of more than `maxChain` pages of one URL pattern, each found on the one before it
 *   (`/calendar/2024-01` → `/calendar/2024-02` → …; digits are what varies), that cannot be real
 *   content: pages alike in everything but their numbers (an empty month), or dated far from the
 *   present (the year 2150).
 *
 * Site sections reached from many pages (a catalogue of 100,000 products) are none of these, so
 * they are crawled whole, and so are chains of distinct pages (a blog's pagination, posts linked
 * by "next"): only --max-pages bounds them. The limits are generous: a real site that passes one
 * raises it.
 */

export interface TrapLimits {
  maxQueryVariants: number;
  maxPathSegments: number;
  maxChain: number;
}

/**
 * Where the crawler stops following a URL space without end (query variants, path depth, chains of
 * pages of one pattern).
 */
export const DEFAULT_TRAP_LIMITS: Readonly<TrapLimits> = {
  maxQueryVariants: 1000,
  maxPathSegments: 20,
  maxChain: 100,
};

/** A run of segments repeated this many times in a row is no real path. */
const REPEATS = 3;

/**
 * The shape of a URL: its path and the names of its query parameters, each run of digits read as
 * `#`. `https://e.com/calendar/2024-05?view=month` → `/calendar/#-#?view`.
 */
export function urlPattern(url: string): string {
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  const queryStart = url.indexOf('?');
  const path = url.slice(pathStart, queryStart === -1 ? undefined : queryStart);
  const names =
    queryStart === -1
      ? ''
      : `?${url
          .slice(queryStart + 1)
          .split('&')
          .map((pair) => pair.split('=', 1)[0])
          .sort()
          .join('&')}`;
  return (path + names).replace(/\d+/g, '#');
}

/** Why the path of `url` can only be a trap's, or undefined. */
export function pathTrap(url: string, maxPathSegments: number): string | undefined {
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  const queryStart = url.indexOf('?');
  const path = url.slice(pathStart, queryStart === -1 ? undefined : queryStart);
  const segments = path.split('/').filter((segment) => segment !== '');
  if (segments.length > maxPathSegments)
    return `a path of ${segments.length} segments, more than --max-path-segments ${maxPathSegments}`;
  const repeated = repeatedRun(segments);
  return repeated === undefined ? undefined : `the path repeats /${repeated.join('/')}/ ${REPEATS} times in a row`;
}

/** The first run of segments that comes REPEATS times in a row, if any. */
function repeatedRun(segments: readonly string[]): readonly string[] | undefined {
  for (let length = 1; length * REPEATS <= segments.length; length++) {
    for (let start = 0; start + length * REPEATS <= segments.length; start++) {
      const run = segments.slice(start, start + length);
      const copiedAt = (copy: number) => run.every((segment, i) => segments[start + copy * length + i] === segment);
      let copies = 1;
      while (copies < REPEATS && copiedAt(copies)) copies++;
      if (copies === REPEATS) return run;
    }
  }
  return undefined;
}

/** A chain's page as the chain rule reads it: its pattern, its place in the chain, and whether it is alike the page before it. */
export interface ChainPage {
  pattern: string;
  chain: number;
  /** The page says what the page it was found on says, but for its numbers (see pageShape). */
  alike?: boolean | undefined;
}

/** A chain dated further than this many years after the present is no real content. */
const FUTURE_YEARS = 5;
/** … nor one dated before this year. */
const EARLIEST_YEAR = 1900;

/**
 * The chain of a URL found on a page: one more than the page's when both have the same pattern,
 * otherwise 0; with the reason when it passes the limit and cannot be real content: the page is
 * alike the one before it but for its numbers, or the URL is dated far from `year` (the present).
 */
export function chainOf(
  url: string,
  page: ChainPage,
  maxChain: number,
  year: number,
): { chain: number; trap?: string } {
  const pattern = urlPattern(url);
  if (pattern !== page.pattern) return { chain: 0 };
  const chain = page.chain + 1;
  if (chain <= maxChain) return { chain };
  const far = farYear(url, year);
  const why = page.alike
    ? 'pages alike but for their numbers'
    : far !== undefined
      ? `dated ${far}, far from the present`
      : undefined;
  if (why === undefined) return { chain };
  return {
    chain,
    trap: `more than --max-chain ${maxChain} pages of the pattern ${pattern} in a row, each found on the one before: ${why}`,
  };
}

/** A year in the URL's path or query (a run of four digits) far from `present`, if any. */
export function farYear(url: string, present: number): number | undefined {
  const afterHost = url.slice(url.indexOf('/', url.indexOf('//') + 2));
  for (const match of afterHost.matchAll(/(?<!\d)(1\d{3}|2\d{3})(?!\d)/g)) {
    const year = Number(match[1]);
    if (year > present + FUTURE_YEARS || year < EARLIEST_YEAR) return year;
  }
  return undefined;
}

/**
 * Counts the query variants of each path as they are fetched: a path that has had its share
 * leaves the rest out. A resumed crawl starts from the counts its store holds.
 */
export class QueryVariants {
  private readonly counts: Map<string, number>;

  /** @param counts fetches so far, by the URL before its "?" */
  constructor(
    private readonly limit: number,
    counts: Map<string, number> = new Map(),
  ) {
    this.counts = counts;
  }

  /** Counts a fetch of `url`, or says why it is a variant too many. */
  admit(url: string): string | undefined {
    const path = queryVariantPath(url);
    if (path === undefined) return undefined;
    const fetched = this.counts.get(path) ?? 0;
    if (fetched >= this.limit) return queryVariantTrap(path, this.limit);
    this.counts.set(path, fetched + 1);
    return undefined;
  }
}

/** What the query variants of `url` are counted under: the URL before its "?" (undefined without a query). */
export function queryVariantPath(url: string): string | undefined {
  const queryStart = url.indexOf('?');
  return queryStart === -1 ? undefined : url.slice(0, queryStart);
}

/** Why a query variant of `path` past the limit is left out. */
export function queryVariantTrap(path: string, limit: number): string {
  return `more than --max-query-variants ${limit} query variants of ${path}: a search or filter space without end`;
}

/** The trap limits given, each one undefined keeping its default. */
export function trapLimits(limits: { [Limit in keyof TrapLimits]?: number | undefined } = {}): TrapLimits {
  const given = Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
  return { ...DEFAULT_TRAP_LIMITS, ...given };
}
