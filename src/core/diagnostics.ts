/**
 * Diagnostics are data: a stable code from the rule catalog (docs/rules.md), a severity, a
 * message that says what is wrong and how to fix it, and where. Every part of sitemapkit that
 * finds a problem reports it in this shape.
 */

export type Severity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  code: string;
  severity: Severity;
  message: string;
  /** 1-based line and column in the document, when the problem has a place. */
  line?: number;
  column?: number;
  /** The `loc` of the entry the problem belongs to. */
  url?: string;
  /** The document (path or URL) the problem was found in, when several are read. */
  source?: string;
}

interface RuleInfo {
  severity: Severity;
  title: string;
}

const E: Severity = 'error';
const W: Severity = 'warning';
const I: Severity = 'info';

/**
 * The catalog: each code with its level in RULES.md and a short title. Codes after the
 * "sitemapkit's own" comment are this project's, for limits and safety the catalog leaves open.
 */
export const RULES: Readonly<Record<string, RuleInfo>> = {
  'FETCH-001': { severity: E, title: 'sitemap could not be fetched' },
  'FETCH-002': { severity: W, title: 'sitemap URL redirects' },
  'FETCH-003': { severity: E, title: 'sitemap URL blocked by robots.txt' },
  'FETCH-004': { severity: E, title: 'login wall' },
  'FETCH-005': { severity: E, title: 'compression error' },
  'FETCH-006': { severity: E, title: 'file too large' },
  'FETCH-007': { severity: E, title: 'HTML or unsupported format instead of a sitemap' },
  'XML-001': { severity: E, title: 'XML parsing error' },
  'XML-002': { severity: E, title: 'content before the XML declaration' },
  'XML-003': { severity: E, title: 'not UTF-8' },
  'XML-004': { severity: E, title: 'incorrect namespace or root element' },
  'XML-005': { severity: E, title: 'unescaped XML special character' },
  'XML-006': { severity: E, title: 'control character' },
  'XML-007': { severity: E, title: 'unknown or misplaced element' },
  'XML-008': { severity: E, title: 'element repeated' },
  'XML-009': { severity: E, title: 'required element missing' },
  'XML-010': { severity: E, title: 'empty element or element with children' },
  'XML-011': { severity: I, title: 'children not in schema order' },
  'XML-012': { severity: W, title: 'empty sitemap' },
  'XML-013': { severity: W, title: 'value over 100 bytes (Yandex)' },
  'URL-001': { severity: E, title: 'not an absolute http(s) URL' },
  'URL-002': { severity: E, title: 'URL length' },
  'URL-003': { severity: E, title: 'invalid URL characters' },
  'URL-004': { severity: E, title: 'URL on another host' },
  'URL-005': { severity: E, title: 'URL outside the sitemap directory' },
  'SCOPE-EX': { severity: I, title: 'scope exception' },
  'URL-006': { severity: W, title: 'duplicate URL' },
  'URL-007': { severity: W, title: 'session ID in URL' },
  'URL-008': { severity: I, title: 'fragment in URL' },
  'URL-009': { severity: E, title: 'too many URLs' },
  'URL-010': { severity: W, title: 'URL blocked by robots.txt' },
  'URL-011': { severity: W, title: 'URL not accessible' },
  'URL-012': { severity: W, title: 'URL redirects' },
  'URL-013': { severity: W, title: 'URL non-canonical or noindex' },
  'DATE-001': { severity: E, title: 'invalid date' },
  'DATE-002': { severity: E, title: 'time without time zone' },
  'DATE-003': { severity: E, title: 'date not on the calendar' },
  'DATE-004': { severity: I, title: 'date form rejected by the XSD' },
  'DATE-005': { severity: W, title: 'date in the future' },
  'DATE-006': { severity: W, title: 'lastmod stamped at build time' },
  'DATE-007': { severity: I, title: 'lastmod accuracy' },
  'FREQ-001': { severity: E, title: 'invalid changefreq' },
  'PRIO-001': { severity: E, title: 'invalid priority' },
  'IDX-001': { severity: E, title: 'invalid sitemap index' },
  'IDX-002': { severity: E, title: 'nested sitemap index' },
  'IDX-003': { severity: E, title: 'incomplete URL in sitemap index' },
  'IDX-004': { severity: E, title: 'index child outside the index directory' },
  'IDX-005': { severity: W, title: 'duplicate, self-referencing or looping index child' },
  'TXT-001': { severity: E, title: 'invalid text sitemap line' },
  'FEED-001': { severity: I, title: 'feed used as a sitemap' },
  'FEED-002': { severity: E, title: 'feed item without a usable link or date' },
  'IMG-001': { severity: E, title: 'image without a valid image:loc' },
  'IMG-002': { severity: E, title: 'too many images' },
  'IMG-003': { severity: W, title: 'deprecated image tag' },
  'IMG-004': { severity: I, title: 'image on another host' },
  'VID-001': { severity: E, title: 'required video tag missing' },
  'VID-002': { severity: E, title: 'video description too long' },
  'VID-003': { severity: E, title: 'video location equals the page' },
  'VID-004': { severity: W, title: 'video content_loc is not a media file' },
  'VID-005': { severity: E, title: 'video number out of range' },
  'VID-006': { severity: E, title: 'video yes/no value invalid' },
  'VID-007': { severity: E, title: 'invalid video restriction' },
  'VID-008': { severity: E, title: 'invalid video platform' },
  'VID-009': { severity: E, title: 'too many video tags or invalid uploader' },
  'VID-010': { severity: E, title: 'invalid video date' },
  'VID-011': { severity: W, title: 'deprecated video tag' },
  'VID-012': { severity: W, title: 'video URL not fetchable' },
  'VID-013': { severity: I, title: 'thumbnail size' },
  'NEWS-001': { severity: E, title: 'required news tag missing' },
  'NEWS-002': { severity: E, title: 'too many news URLs' },
  'NEWS-003': { severity: W, title: 'news article older than 2 days' },
  'NEWS-004': { severity: E, title: 'invalid news publication date' },
  'NEWS-005': { severity: E, title: 'invalid news language' },
  'NEWS-006': { severity: W, title: 'news name or title' },
  'NEWS-007': { severity: W, title: 'legacy news tag' },
  'HREF-001': { severity: E, title: 'invalid hreflang link' },
  'HREF-002': { severity: E, title: 'invalid hreflang value' },
  'HREF-003': { severity: E, title: 'hreflang cluster incomplete' },
  'HREF-004': { severity: W, title: 'hreflang return link missing' },
  'HREF-005': { severity: W, title: 'hreflang clusters disagree' },
  'HREF-006': { severity: I, title: 'hreflang advice' },
  'ENG-001': { severity: W, title: 'Google ping is retired' },
  'ENG-002': { severity: W, title: 'Bing ping is retired' },
  'ROBOTS-001': { severity: W, title: 'robots.txt over 500 KiB' },
  'ROBOTS-002': { severity: E, title: 'relative Sitemap: URL in robots.txt' },
  'ROBOTS-003': { severity: W, title: 'HTML served as robots.txt' },
  'ROBOTS-004': { severity: I, title: 'robots.txt unreachable: crawl disallowed' },
  'ROBOTS-005': { severity: W, title: 'robots.txt rules before any user-agent' },
  'IN-001': { severity: E, title: 'invalid IndexNow key' },
  'IN-002': { severity: E, title: 'IndexNow key file invalid' },
  'IN-003': { severity: E, title: 'URL outside the IndexNow host' },
  'IN-004': { severity: E, title: 'too many URLs for one IndexNow request' },
  'IN-005': { severity: W, title: 'IndexNow request not accepted' },
  // sitemapkit's own: safety and resource limits.
  'SEC-001': { severity: E, title: 'DTD or entity declaration refused' },
  'LIMIT-001': { severity: E, title: 'text value too long' },
  'LIMIT-002': { severity: E, title: 'entry limit reached' },
  'INPUT-001': { severity: E, title: 'input line skipped' },
  'LIMIT-003': { severity: W, title: 'sitemap index nested deeper than the depth limit: not followed' },
};

/** A diagnostic for a catalog code, with the catalog's severity unless one is given. */
export function diagnostic(
  code: string,
  message: string,
  where: Omit<Diagnostic, 'code' | 'severity' | 'message'> & { severity?: Severity } = {},
): Diagnostic {
  const { severity, ...place } = where;
  const rule = RULES[code];
  if (!rule && severity === undefined) throw new Error(`unknown diagnostic code ${code}`);
  return { code, severity: severity ?? rule!.severity, message, ...place };
}

/** `source:line:column: severity CODE message`, the one-line form printed on stderr. */
export function formatDiagnostic(d: Diagnostic, source = d.source): string {
  const place = [source, d.line, d.column].filter((part) => part !== undefined && part !== '').join(':');
  return `${place ? `${place}: ` : ''}${d.severity} ${d.code} ${d.message}${d.url && !d.message.includes(d.url) ? ` (${d.url})` : ''}`;
}
