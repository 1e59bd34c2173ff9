/**
 * The check of one listed URL: its listing (where and how the sitemaps list it) and its live
 * answer (./live-page.ts) → what is wrong with it, as findings with details, plus the facts a row
 * shows. Pure: no I/O and no clock (the audit's `now` comes in), so the audit's scheduler and a
 * worker of a shared run check alike. Findings that need other URLs' answers (return links,
 * orphans) are ./cross-checks.ts's.
 */
import { pageDateMillis, w3cToEpochMillis } from '../core/datetime.js';
import type { Alternate } from '../core/entry.js';
import { futureDateProblem, staleLastmodProblem } from '../core/rules/dates.js';
import { alternatesMismatchProblem } from '../core/rules/hreflang.js';
import { lastmodFromHeader } from '../crawl/lastmod.js';
import { parseLinkHeader } from '../crawl/link-header.js';
import { addRobotsHeader } from '../html/directives.js';
import { saysNotFound } from '../html/not-found-words.js';
import { inReportOrder, type Finding } from './findings.js';
import type { AnsweredPage, LiveAnswer } from './live-page.js';
import type { NotFoundAnswer } from './soft-404.js';

/** A URL as the sitemaps list it. */
export interface Listing {
  url: string;
  /** The sitemap that lists it first, and the line of its `<loc>` there. */
  sitemap: string;
  line?: number | undefined;
  lastmod?: string | undefined;
  alternates?: readonly Alternate[] | undefined;
  /** Its other listings, or its http/https or www twins', as the validator reported them (URL-006). */
  repeats?: readonly { sitemap: string; line?: number | null | undefined; detail: string }[] | undefined;
}

/** What the check of a URL needs beyond its listing and answer. */
export interface CheckContext {
  /** The audit's clock (epoch ms). */
  now: number;
  /** Hosts (lower case, without `www.`) that answer over https: an http URL on one is a finding. */
  httpsHosts: ReadonlySet<string>;
  /** Whether a URL is listed by the sitemaps (a redirect's target). */
  isListed(url: string): boolean;
  /**
   * What the host of `url` answers for a URL that cannot exist (./soft-404.ts), when it was asked:
   * a listed URL answering the same is a soft 404.
   */
  notFoundAnswer?: ((url: string) => NotFoundAnswer | undefined) | undefined;
}

/** What the check of one URL found. */
export interface CheckedUrl {
  /** The first answer's status (a redirect's, when it redirected). */
  status?: number;
  /** Where the redirects ended, its status, and whether the sitemaps list it. */
  finalUrl?: string;
  finalStatus?: number;
  targetListed?: boolean;
  /** The media type of the (final) answer. */
  contentType?: string;
  /** Answered 200 with an HTML page that is not noindex and is its own canonical. */
  indexable: boolean;
  findings: Finding[];
  /** What each finding is about, in words. */
  details: Partial<Record<Finding, string>>;
  /** The answer's Last-Modified (when it says something), as a W3C datetime. */
  lastModified?: string;
  /** When the page says it changed (article:modified_time, JSON-LD dateModified), as written. */
  pageModified?: string;
  /** The page's one canonical, when it names another URL. */
  canonical?: string;
  /** The page's own hreflang links (head and Link header), for the return-link check. */
  liveHreflang?: Alternate[];
  /** The content digest of an indexable page, for the duplicate-content check across URLs. */
  digest?: string;
}

/** The findings of one listed URL, from its listing and its live answer (pure). */
export function checkListing(listing: Listing, answer: LiveAnswer, context: CheckContext): CheckedUrl {
  const found = new Findings();
  checkListed(listing, context, found);
  const checked: CheckedUrl = { indexable: false, findings: [], details: {} };
  if (answer.kind === 'blocked') {
    found.add('robots-blocked', answer.why);
  } else if (answer.kind === 'failed') {
    const first = answer.redirects[0];
    if (first) Object.assign(checked, { status: first.status, finalUrl: answer.redirects.at(-1)!.to });
    found.add('unreachable', answer.message);
  } else {
    checkAnswer(listing, answer, context, checked, found);
  }
  checked.findings = found.list();
  checked.details = found.details;
  return checked;
}

/** What the listing alone shows: an http URL of an https site, repeats, a lastmod in the future. */
function checkListed(listing: Listing, context: CheckContext, found: Findings): void {
  const url = URL.canParse(listing.url) ? new URL(listing.url) : undefined;
  if (url?.protocol === 'http:' && context.httpsHosts.has(siteHost(url.hostname)))
    found.add('http-on-https', `${url.hostname} answers over https: list the https:// URL`);
  const [repeat, ...more] = listing.repeats ?? [];
  if (repeat) {
    const place = repeat.line == null ? repeat.sitemap : `${repeat.sitemap}:${repeat.line}`;
    found.add('duplicate-listing', `${place}: ${repeat.detail}${more.length > 0 ? ` (and ${more.length} more)` : ''}`);
  }
  const lastmod = lastmodMillis(listing.lastmod);
  if (lastmod !== undefined) {
    const future = futureDateProblem(listing.lastmod!, lastmod, context.now);
    if (future) found.add('lastmod-future', future.message);
  }
}

function checkAnswer(
  listing: Listing,
  answer: AnsweredPage,
  context: CheckContext,
  checked: CheckedUrl,
  found: Findings,
): void {
  const first = answer.redirects[0];
  checked.status = first?.status ?? answer.status;
  if (first) {
    checked.finalUrl = answer.url;
    checked.finalStatus = answer.status;
    checked.targetListed = context.isListed(answer.url);
    const hops = answer.redirects.length === 1 ? '' : ` in ${answer.redirects.length} hops`;
    const listed = checked.targetListed ? 'listed too' : 'not listed';
    found.add('redirect', `HTTP ${first.status} to ${answer.url}${hops} (${listed}, answers ${answer.status})`);
  }
  const contentType = answer.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (contentType) checked.contentType = contentType;
  const lastModified = lastmodFromHeader(answer.headers['last-modified'], answer.fetchedAt, answer.headers.date);
  if (lastModified !== undefined) checked.lastModified = lastModified;

  const status = answer.status;
  if (status >= 400 && status < 500) return found.add('http-4xx', `HTTP ${status}`);
  if (status >= 500) return found.add('http-5xx', `HTTP ${status}`);
  if (status !== 200) {
    if (!first) found.add('redirect', `HTTP ${status} without a Location to follow`);
    return;
  }

  const directives = { noindex: answer.page?.directives.noindex ?? false, nofollow: false };
  for (const value of headerList(answer.headers['x-robots-tag'])) addRobotsHeader(directives, value);
  if (directives.noindex) {
    const where = answer.page?.directives.noindex ? 'a robots <meta> tag' : 'the X-Robots-Tag header';
    found.add('noindex', `noindex in ${where}`);
  }
  if (answer.cutAt !== undefined)
    found.add('cut-off', `the page went past ${answer.cutAt.toLocaleString('en-US')} bytes (--max-page-bytes)`);
  const page = answer.page;
  if (!page) {
    found.add('not-html', answer.notHtml ?? `served as ${contentType ?? 'no type'}`);
    return;
  }

  const links = headerList(answer.headers.link).flatMap(parseLinkHeader);
  const canonicals = distinct([
    ...page.canonicals,
    ...links.filter((link) => link.rel.includes('canonical')).flatMap((link) => absolute(link.target, answer.url)),
  ]);
  // One canonical elsewhere decides; canonicals that disagree say nothing (as the crawler reads them).
  const [canonical, ...others] = canonicals;
  const canonicalElsewhere = canonical !== undefined && others.length === 0 && canonical !== absolute(answer.url)[0];
  if (canonicalElsewhere) {
    checked.canonical = canonical;
    found.add('canonical-elsewhere', `canonical is ${canonical}`);
  }
  const sendsOn = checkClientRedirect(answer, context, checked, found);
  const soft404 = softNotFound(answer, context);
  if (soft404 !== undefined) found.add('soft-404', soft404);
  checked.indexable = !first && !sendsOn && soft404 === undefined && !directives.noindex && !canonicalElsewhere;
  if (checked.indexable && answer.digest !== undefined) checked.digest = answer.digest;

  const liveHreflang = [
    ...page.alternates,
    ...links
      .filter((link) => link.rel.includes('alternate') && link.hreflang)
      .flatMap((link) => absolute(link.target, answer.url).map((href) => ({ hreflang: link.hreflang!, href }))),
  ];
  if (liveHreflang.length > 0) checked.liveHreflang = liveHreflang;
  const mismatch = alternatesMismatchProblem(listing.alternates ?? [], liveHreflang);
  if (mismatch) found.add('hreflang-mismatch', mismatch.message);

  if (page.modified !== undefined) checked.pageModified = page.modified;
  checkStaleness(listing, checked, found);
}

/**
 * A page that sends the browser on by itself (meta refresh, script) is a redirect, as the crawler
 * judges it: the target, and whether the sitemaps list it. One back to the page itself is none.
 */
function checkClientRedirect(
  answer: AnsweredPage,
  context: CheckContext,
  checked: CheckedUrl,
  found: Findings,
): boolean {
  const redirect = answer.page?.clientRedirect;
  const target = clientRedirectTarget(answer);
  if (redirect === undefined || target === undefined) return false;
  const how =
    redirect.kind === 'meta-refresh'
      ? `meta refresh${redirect.delaySeconds > 0 ? ` after ${redirect.delaySeconds} s` : ''}`
      : `${redirect.how} in an inline script`;
  checked.finalUrl ??= target;
  checked.targetListed ??= context.isListed(target);
  found.add('redirect', `${how} to ${target} (${context.isListed(target) ? 'listed too' : 'not listed'})`);
  return true;
}

/** Where a page's meta refresh or inline script sends the browser, when elsewhere. */
function clientRedirectTarget(answer: AnsweredPage): string | undefined {
  const redirect = answer.page?.clientRedirect;
  const target = redirect === undefined ? undefined : absolute(redirect.href)[0];
  return target === undefined || target === absolute(answer.url)[0] ? undefined : target;
}

/**
 * The URLs whose listing the check of `answer` asks about (`CheckContext.isListed`): where its
 * redirects lead, by HTTP or in the page. A caller whose look-up is slow asks them beforehand.
 */
export function redirectTargets(answer: LiveAnswer): string[] {
  if (answer.kind !== 'answered') return [];
  const targets = answer.redirects.length > 0 ? [answer.url] : [];
  const client = clientRedirectTarget(answer);
  return client === undefined ? targets : [...targets, client];
}

/**
 * soft-404: a 200 page that is what the host answers for a URL that cannot exist (the same
 * content, or the same title and heading), or whose title and first heading say "not found".
 * A site that answers every unknown URL with its home page does not make the home page one.
 */
function softNotFound(answer: AnsweredPage, context: CheckContext): string | undefined {
  const probe = context.notFoundAnswer?.(answer.url);
  const isHome = URL.canParse(answer.url) && new URL(answer.url).pathname === '/';
  if (probe !== undefined && probe.status === 200 && !isHome) {
    if (probe.digest !== undefined && probe.digest === answer.digest)
      return `answers 200 with the same content as ${probe.url}, a URL that cannot exist`;
    if (probe.title !== undefined && probe.title === answer.page?.title && probe.heading === answer.page.heading)
      return `answers 200 with the same title and heading as ${probe.url}, a URL that cannot exist ("${probe.title}")`;
  }
  const says = saysNotFound(answer.page ?? {});
  return says === undefined ? undefined : `answers 200, but ${says}`;
}

/**
 * lastmod-stale: the page's own date when it gives one (it names the content's change), else its
 * Last-Modified (which lastmodFromHeader already dropped when it only stamps the response).
 */
function checkStaleness(listing: Listing, checked: CheckedUrl, found: Findings): void {
  const lastmod = lastmodMillis(listing.lastmod);
  if (lastmod === undefined) return;
  const changed = pageChange(checked);
  if (changed === undefined) return;
  const how = changed.by === 'page' ? "the page's own date" : 'its Last-Modified header';
  const stale = staleLastmodProblem(listing.lastmod!, lastmod, changed.millis, how);
  if (stale) found.add('lastmod-stale', stale.message);
}

/** When a checked page says it changed, and what says so: its own date first, else its Last-Modified. */
export function pageChange(
  checked: Pick<CheckedUrl, 'pageModified' | 'lastModified'>,
): { millis: number; by: 'page' | 'header' } | undefined {
  const own = pageDateMillis(checked.pageModified);
  if (own !== undefined) return { millis: own, by: 'page' };
  const header = lastmodMillis(checked.lastModified);
  return header === undefined ? undefined : { millis: header, by: 'header' };
}

/** Findings as they are met, each once with its first detail. */
class Findings {
  readonly details: Partial<Record<Finding, string>> = {};

  add(finding: Finding, detail: string): void {
    this.details[finding] ??= detail;
  }

  list(): Finding[] {
    return inReportOrder(Object.keys(this.details) as Finding[]);
  }
}

function lastmodMillis(lastmod: string | undefined): number | undefined {
  return lastmod === undefined ? undefined : w3cToEpochMillis(lastmod);
}

/** `www.example.com` and `example.com` are one site for http-on-https. */
export function siteHost(hostname: string): string {
  const host = hostname.toLowerCase();
  return host.startsWith('www.') ? host.slice(4) : host;
}

/** A header's value as a list (the HTTP layer joins repeated headers with ", "). */
function headerList(value: string | undefined): string[] {
  return value === undefined ? [] : [value];
}

/** `href` made absolute against `base`, without its fragment; none when it is no URL. */
function absolute(href: string, base?: string): string[] {
  try {
    const url = new URL(href.trim(), base);
    url.hash = '';
    return [url.href];
  } catch {
    return [];
  }
}

function distinct(values: readonly string[]): string[] {
  return [...new Set(values)];
}
