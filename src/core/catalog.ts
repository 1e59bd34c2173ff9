/**
 * The rule catalog: every diagnostic code sitemapkit reports, with its severity, a title, why it
 * matters and how to fix it. It is the one source of truth: diagnostics take their severity from
 * it, `sitemapkit rules` prints it, and docs/rules.md is generated from it (npm run docs:rules).
 * A new rule is one entry here, in its family; a new family is one line in FAMILIES.
 *
 * Severities: an error breaks the protocol, or a search engine rejects the file or the entry; a
 * warning is accepted but likely ignored or harmful, or rejected by one engine; an info is advice.
 */
import type { Severity } from './diagnostics.js';

/** One rule of the catalog. */
export interface RuleInfo {
  /** The severity the code is reported at, unless one of `also` applies. */
  severity: Severity;
  /** Other severities the code is reported at, and when: every severity emitted is stated here. */
  also?: readonly { severity: Severity; when: string }[];
  /** A few words, as a heading. */
  title: string;
  /** What goes wrong, and for whom, when the rule is broken. */
  why: string;
  /** What to change. */
  fix: string;
}

/** The families of codes, by prefix, in the order the catalog lists them. */
export const FAMILIES: readonly { title: string; prefixes: readonly string[] }[] = [
  { title: 'Fetching the sitemap', prefixes: ['FETCH'] },
  { title: 'The XML document', prefixes: ['XML'] },
  { title: 'Page URLs', prefixes: ['URL', 'SCOPE'] },
  { title: 'lastmod, changefreq and priority', prefixes: ['DATE', 'FREQ', 'PRIO'] },
  { title: 'Sitemap indexes, text sitemaps and feeds', prefixes: ['IDX', 'TXT', 'FEED'] },
  { title: 'Image extension', prefixes: ['IMG'] },
  { title: 'Video extension', prefixes: ['VID'] },
  { title: 'News extension', prefixes: ['NEWS'] },
  { title: 'hreflang alternates', prefixes: ['HREF'] },
  { title: 'Search engines and submission', prefixes: ['ENG'] },
  { title: 'robots.txt', prefixes: ['ROBOTS'] },
  { title: 'IndexNow', prefixes: ['IN'] },
  { title: "sitemapkit's own: safety, limits and input", prefixes: ['SEC', 'LIMIT', 'INPUT'] },
];

const E: Severity = 'error';
const W: Severity = 'warning';
const I: Severity = 'info';

/**
 * The rule catalog: every diagnostic code sitemapkit reports, with its severity, title, why it
 * matters and how to fix it (also `sitemapkit rules` and docs/rules.md).
 */
export const RULES: Readonly<Record<string, RuleInfo>> = {
  // ── Fetching the sitemap ──────────────────────────────────────────────────────────────────────
  'FETCH-001': {
    severity: E,
    also: [
      {
        severity: W,
        when: "when only the redirects of a diff's URL could not be checked (diff --check-redirects): the sets themselves were read",
      },
    ],
    title: 'sitemap could not be fetched',
    why: 'A search engine that gets an HTTP error, a network failure or an empty body reads nothing; Search Console shows "Couldn\'t fetch" and retries for a few days before giving up.',
    fix: 'Make the sitemap URL answer 200 with the document as the body: check the path, the server and any firewall or bot protection in front of it.',
  },
  'FETCH-002': {
    severity: W,
    title: 'sitemap URL redirects',
    why: 'Engines follow the redirect, but Bing asks not to rely on it and Yandex lists it as a problem status; the URL you submitted is not the one that is read.',
    fix: 'Submit and reference (robots.txt, Search Console) the final URL the redirect leads to.',
  },
  'FETCH-003': {
    severity: E,
    title: 'sitemap URL blocked by robots.txt',
    why: 'A crawler that obeys robots.txt may not fetch a sitemap its rules disallow, so the file is never read.',
    fix: 'Allow the sitemap path in robots.txt (an Allow line for it, or narrow the Disallow).',
  },
  'FETCH-004': {
    severity: E,
    title: 'login wall',
    why: 'A 401 or 403, or a login page, means crawlers get no sitemap.',
    fix: 'Serve the sitemap without authentication, and exempt it from bot challenges.',
  },
  'FETCH-005': {
    severity: E,
    title: 'compression error',
    why: 'Engines accept gzip only, and only when it inflates cleanly; a zip archive or a broken gzip stream is a "Compression error" and nothing is read.',
    fix: 'Compress with gzip (a .gz file), or serve the plain XML; check that the file was uploaded whole.',
  },
  'FETCH-006': {
    severity: E,
    title: 'file too large',
    why: 'The protocol caps one sitemap at 50 MiB (52,428,800 bytes) uncompressed; engines stop reading past it ("Sitemap file size error").',
    fix: 'Split the URLs over several sitemaps and list them in a sitemap index (sitemapkit generate shards automatically).',
  },
  'FETCH-007': {
    severity: E,
    title: 'HTML or unsupported format instead of a sitemap',
    why: 'An HTML page (often a soft 404 or an error page) or an unknown format is not a sitemap: Search Console says "Sitemap is HTML" or "Unsupported format".',
    fix: 'Point at the real sitemap file; make the server return 404 for missing files, not an HTML page with 200.',
  },
  // ── The XML document ──────────────────────────────────────────────────────────────────────────
  'XML-001': {
    severity: E,
    title: 'XML parsing error',
    why: 'A document that is not well-formed XML (a tag left open, an undeclared prefix, a cut-off file) stops strict readers at the error: everything after it is lost.',
    fix: 'Fix the markup at the reported line and column; generate sitemaps with a tool that writes XML, not by string concatenation.',
  },
  'XML-002': {
    severity: E,
    also: [{ severity: I, when: 'for a UTF-8 byte-order mark, which is legal XML but trips some older tools' }],
    title: 'content before the XML declaration',
    why: 'Whitespace or stray bytes before <?xml make the document ill-formed ("Leading whitespace"); a byte-order mark is fine.',
    fix: 'Remove everything before <?xml, usually a blank line printed by a template or a plug-in.',
  },
  'XML-003': {
    severity: E,
    title: 'not UTF-8',
    why: 'Sitemaps must be UTF-8; another declared encoding, or invalid byte sequences, garble or lose URLs.',
    fix: 'Write the file as UTF-8 and declare encoding="UTF-8".',
  },
  'XML-004': {
    severity: E,
    title: 'incorrect namespace or root element',
    why: 'Engines match the root element and its namespace exactly; a typo (xlmns), https, a trailing slash or an old Google namespace is "Incorrect namespace" and the file is rejected.',
    fix: 'Use <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"> (or <sitemapindex> with the same namespace), written exactly so.',
  },
  'XML-005': {
    severity: E,
    title: 'unescaped XML special character',
    why: 'A raw & or < is a parse error: the value, and often the rest of the file, cannot be read.',
    fix: 'Escape & as &amp;, < as &lt;, > as &gt;, " as &quot; and \' as &apos; (or wrap text in CDATA).',
  },
  'XML-006': {
    severity: E,
    title: 'control character',
    why: 'XML 1.0 forbids control characters other than tab, line feed and carriage return; strict parsers stop at them.',
    fix: 'Strip control characters from titles and descriptions before writing them.',
  },
  'XML-007': {
    severity: E,
    title: 'unknown or misplaced element',
    why: 'An element the schema does not know, or one in the wrong parent, is "Invalid XML tag": engines ignore it or reject the entry.',
    fix: 'Use only loc, lastmod, changefreq and priority in <url> (loc and lastmod in <sitemap>), extensions in their own namespaces, with names in the right case.',
  },
  'XML-008': {
    severity: E,
    title: 'element repeated',
    why: 'A tag that may appear once appears again ("Too many tags"); readers keep one of them, not necessarily the one you meant.',
    fix: 'Keep one of each: one loc, one lastmod, one changefreq, one priority per entry.',
  },
  'XML-009': {
    severity: E,
    title: 'required element missing',
    why: 'An entry without its required child, usually a <url> without <loc>, lists nothing ("Missing XML tag").',
    fix: 'Give every <url> and <sitemap> a <loc> with the absolute URL.',
  },
  'XML-010': {
    severity: E,
    title: 'empty element or element with children',
    why: 'A text element that is empty, or that holds other elements, has no usable value ("Tag cannot be empty").',
    fix: 'Leave the element out when there is no value; write plain text inside it.',
  },
  'XML-011': {
    severity: I,
    title: 'children not in schema order',
    why: 'Engines accept any order, but the schema wants loc, lastmod, changefreq, priority, then extensions, so a strict schema check fails.',
    fix: 'Write the children in the schema order.',
  },
  'XML-012': {
    severity: W,
    title: 'empty sitemap',
    why: 'A sitemap with no entries tells engines nothing ("Empty sitemap"); it is normal only for a news sitemap when nothing was published in the last two days.',
    fix: 'Add the URLs, or stop publishing and referencing the file.',
  },
  'XML-013': {
    severity: W,
    title: 'value over 100 bytes (Yandex)',
    why: 'Yandex rejects lastmod, changefreq and priority values longer than 100 bytes ("Data limit exceeded").',
    fix: 'Shorten the value: a lastmod needs no more than seconds.',
  },
  'XML-014': {
    severity: E,
    title: 'document cut off',
    why: 'The bytes end inside the document (an upload or a transfer cut short, a file still being written): the entries after the cut are lost, and an engine may reject the whole file.',
    fix: 'Publish the file whole (write it to a temporary name, then rename it), and check that the server sends all of it.',
  },
  // ── Page URLs ─────────────────────────────────────────────────────────────────────────────────
  'URL-001': {
    severity: E,
    title: 'not an absolute http(s) URL',
    why: 'Engines only follow complete http or https URLs; a relative path, a host without a scheme or another scheme is "Invalid URL" and is dropped. In an extension (image, video, hreflang), text that is no URL at all points nowhere.',
    fix: 'Write every URL with its scheme and host: https://www.example.com/page.',
  },
  'URL-002': {
    severity: E,
    also: [
      {
        severity: W,
        when: "for a URL of exactly 2,048 characters, one under the schema's 12, or one over Yandex's 1,024",
      },
    ],
    title: 'URL length',
    why: 'The protocol allows URLs of fewer than 2,048 characters: longer ones are rejected, exactly 2,048 is at the edge, under 12 fails the schema, and Yandex ignores URLs over 1,024 characters.',
    fix: 'Shorten the URL: fewer query parameters, shorter slugs.',
  },
  'URL-003': {
    severity: E,
    also: [{ severity: W, when: 'when the only fault is whitespace around the URL, which was trimmed' }],
    title: 'invalid URL characters',
    why: 'A URL must be valid RFC 3986: spaces, quotes, <>{}|\\^` and non-ASCII characters must be percent-encoded, and every % must start a two-digit escape. Engines may read a raw URL differently from the page it names. Whitespace around a URL is only a warning: it is trimmed.',
    fix: 'Percent-encode the URL as UTF-8 (a space is %20, ü is %C3%BC) and write IDN hosts in punycode; sitemapkit generate does this for you.',
  },
  'URL-004': {
    severity: E,
    also: [
      {
        severity: W,
        when: "when the sitemap may have been submitted in Search Console or named in the other host's robots.txt (SCOPE-EX); an error with --strict-scope",
      },
    ],
    title: 'URL on another host',
    why: 'A sitemap may only list URLs on its own scheme, host and port ("URL not allowed"); www and non-www, http and https count as different hosts. sitemapkit reports it as a warning unless --strict-scope, since cross-submission may allow it (see SCOPE-EX).',
    fix: "Move the URL to a sitemap on its own host, or prove ownership by listing this sitemap in the other host's robots.txt.",
  },
  'URL-005': {
    severity: E,
    also: [
      {
        severity: W,
        when: "when the sitemap may have been submitted in Search Console or named in the host's robots.txt (SCOPE-EX); an error with --strict-scope",
      },
    ],
    title: 'URL outside the sitemap directory',
    why: 'A sitemap may only list URLs at or below its own folder: /catalog/sitemap.xml may not list / or /images/… ("URL not allowed"). Reported as a warning unless --strict-scope (see SCOPE-EX).',
    fix: 'Publish the sitemap at the site root, or move the URL to a sitemap in a folder above it.',
  },
  'SCOPE-EX': {
    severity: I,
    title: 'scope exception',
    why: "The location rules have exceptions: a host's robots.txt that names the sitemap proves ownership (cross-submission), and Search Console accepts sitemaps for all verified properties. When sitemapkit cannot know how a sitemap is submitted, it reports scope problems as warnings.",
    fix: 'Nothing to fix: use --strict-scope when the sitemap is not cross-submitted, so scope problems count as errors.',
  },
  'URL-006': {
    severity: W,
    title: 'duplicate URL',
    why: 'The same URL listed twice, or http/https or www/non-www twins of one page, wastes crawl budget and sends mixed signals about which version to index.',
    fix: 'List each page once, in the one version you want in search results.',
  },
  'URL-007': {
    severity: W,
    title: 'session ID in URL',
    why: 'A session ID gives every crawl a new address for the same page, so engines see endless duplicates.',
    fix: 'List URLs without session parameters (sid, sessionid, jsessionid, phpsessid …).',
  },
  'URL-008': {
    severity: I,
    title: 'fragment in URL',
    why: 'The part after # is never sent to the server, so crawlers ignore it: the URL names the same page as the one without it.',
    fix: 'List the URL without its fragment (sitemapkit generate cuts it).',
  },
  'URL-009': {
    severity: E,
    title: 'too many URLs',
    why: 'One sitemap may list at most 50,000 URLs ("Too many URLs"); engines stop reading past the limit.',
    fix: 'Split the URLs over several sitemaps listed in a sitemap index.',
  },
  'URL-010': {
    severity: W,
    title: 'URL blocked by robots.txt',
    why: 'A listed URL that robots.txt disallows cannot be crawled: the sitemap and robots.txt contradict each other.',
    fix: 'Either allow the URL in robots.txt or remove it from the sitemap.',
  },
  'URL-011': {
    severity: E,
    title: 'URL answers 4xx',
    why: 'A listed URL that answers 404, 410 or another 4xx names a page that does not exist (or that crawlers may not see); Search Console reports it as "Submitted URL not found" and engines trust the sitemap less.',
    fix: 'Remove the URL from the sitemap, or restore the page (a moved page redirects, and its new URL is listed).',
  },
  'URL-012': {
    severity: W,
    title: 'URL redirects',
    why: 'A listed URL that redirects is not the page to index; engines follow it but treat the sitemap as less reliable.',
    fix: 'List the final URL the redirect leads to.',
  },
  'URL-013': {
    severity: E,
    title: 'URL is noindex',
    why: 'A sitemap asks engines to index its URLs; a page that says noindex (robots or googlebot <meta>, or an X-Robots-Tag header) contradicts it, and Search Console reports "Submitted URL marked noindex".',
    fix: 'Remove the URL from the sitemap, or drop the noindex from the page if it should be found.',
  },
  'URL-014': {
    severity: E,
    title: 'URL answers 5xx',
    why: 'A listed URL that answers a server error (500, 502, 503 …), after the retries, cannot be crawled; engines slow down on a site that fails and drop pages that keep failing.',
    fix: 'Fix the server error; when it is a planned outage, answer 503 with Retry-After.',
  },
  'URL-015': {
    severity: E,
    title: 'URL unreachable',
    why: 'No answer came for a listed URL (refused or reset connection, name not resolved, timeout, a body that never arrived, too many redirects or a redirect loop): engines cannot read the page.',
    fix: 'Make the URL answer within seconds; for redirects, point the first hop at the final URL.',
  },
  'URL-016': {
    severity: W,
    title: 'canonical points elsewhere',
    why: 'A sitemap is a canonical hint; a page whose <link rel="canonical"> (or Link: header) names another URL says the listed one is a duplicate, so engines index the other one and ignore the sitemap\'s hint.',
    fix: 'List the canonical URL instead, or make the page its own canonical.',
  },
  'URL-017': {
    severity: I,
    title: 'listed URL is not an HTML page',
    why: 'The URL answers with something other than HTML (a PDF, an image, a feed, JSON). Engines may index some such files, but a page sitemap usually means pages: it may be listed by mistake.',
    fix: 'Keep it if the file is meant for search results; otherwise remove it from the sitemap.',
  },
  'URL-018': {
    severity: W,
    title: 'http URL on an https site',
    why: 'The site answers over https, yet the sitemap lists the http address: engines fetch a redirect (or a second copy of the page) instead of the page, and the listed URL is not the one to show.',
    fix: 'List the https URL.',
  },
  'URL-019': {
    severity: W,
    title: 'orphan page',
    why: 'The page is listed, but no page reached by following links from the home page links to it: visitors cannot find it, and engines give a page without internal links little weight.',
    fix: 'Link to the page from related pages or a section index, or remove it from the sitemap if it is obsolete.',
  },
  'URL-020': {
    severity: W,
    title: 'indexable page not listed',
    why: 'A crawl from the home page found this page answering 200, indexable and its own canonical, yet no sitemap lists it: the sitemap is incomplete, so engines learn of the page later, and its changes (lastmod) not at all.',
    fix: 'Add the page to the sitemap (or make it noindex, or canonical to another page, if it should not be found).',
  },
  'URL-021': {
    severity: W,
    title: 'page larger than the read limit',
    why: 'The page did not end within --max-page-bytes (default 10 MiB): it is very large, never ends, or is a compression bomb. Google reads only the first 15 MB of an HTML page and ignores the rest.',
    fix: 'Make the page smaller; check for a page that streams without end.',
  },
  'URL-022': {
    severity: W,
    title: 'listed URL is a soft 404',
    why: 'The URL answers 200 with what the site answers for a page that does not exist (the same content as a URL that cannot exist, or a title and first heading saying "not found"). Search engines report it as "Soft 404" and drop it; listing it wastes the crawl and tells engines the sitemap is careless.',
    fix: 'Remove the URL from the sitemap, or restore the page; make the server answer 404 or 410 for pages that do not exist.',
  },
  'URL-023': {
    severity: W,
    title: 'listed URLs with the same content',
    why: 'Several listed URLs answer exactly the same content (the same normalised body), and no canonical ties them together. Engines pick one of them to index, not necessarily the one you would, and Search Console reports the others as "Duplicate without user-selected canonical".',
    fix: 'List one URL of each group, and point the others at it with <link rel="canonical"> (or redirect them to it).',
  },
  'URL-024': {
    severity: W,
    title: 'user name or password in URL',
    why: 'A URL written https://user:password@host/ publishes its password to everyone who reads the sitemap, the report or the store, and engines never send it. sitemapkit removes the user name and password from every URL it writes, prints or stores, and names only the host.',
    fix: 'List the URL without the user name and password; protect a private site by other means (engines cannot log in).',
  },
  // ── lastmod, changefreq and priority ───────────────────────────────────────────────────────────
  'DATE-001': {
    severity: E,
    title: 'invalid date',
    why: 'lastmod must be a W3C datetime (YYYY-MM-DD, or with a time and zone); 21/05/2024, a space instead of T or 2009-10-5 are "Invalid date" and the date is ignored.',
    fix: 'Write YYYY-MM-DD or YYYY-MM-DDThh:mm:ss±hh:mm.',
  },
  'DATE-002': {
    severity: E,
    title: 'time without time zone',
    why: 'A time without a zone is not a W3C datetime: readers cannot tell which instant it means.',
    fix: 'Add Z or the offset: 2024-05-01T10:00:00+02:00.',
  },
  'DATE-003': {
    severity: E,
    title: 'date not on the calendar',
    why: 'A date or time that does not exist (February 30, hour 24, an offset past 14:00) is rejected as an invalid date.',
    fix: 'Write the real date and time.',
  },
  'DATE-004': {
    severity: I,
    title: 'date form rejected by the XSD',
    why: 'A year alone, a year and month, or a time without seconds are valid W3C, but the sitemap schema and Search Console expect a full date or a time with seconds.',
    fix: 'Write YYYY-MM-DD or YYYY-MM-DDThh:mm:ss±hh:mm.',
  },
  'DATE-005': {
    severity: W,
    title: 'date in the future',
    why: 'A page cannot have changed in the future; such dates teach engines to distrust your lastmod values, and Bing may reject them.',
    fix: 'Write the date the page last changed (check the server clock and time zones).',
  },
  'DATE-006': {
    severity: W,
    title: 'lastmod stamped at build time',
    why: "When nearly every lastmod falls on one day, the dates are the sitemap's build time, not each page's last change; Google then ignores lastmod for the site.",
    fix: "Write each page's last significant change (content, structured data, links), or leave lastmod out.",
  },
  'DATE-007': {
    severity: I,
    title: 'lastmod accuracy',
    why: 'Google uses lastmod only when it is consistently accurate, and Bing relies on it to recrawl; both ignore changefreq and priority. In an index, lastmod lets crawlers fetch only the children that changed.',
    fix: 'Keep lastmod accurate, with a full date-time and offset; put the child file modification time in an index.',
  },
  'DATE-008': {
    severity: W,
    title: 'lastmod older than the page says',
    why: "The page says it changed (its article:modified_time, its JSON-LD or microdata dateModified, or else its Last-Modified header, unless that is one build's time on most pages of the host) more than a day after the lastmod listed for it: the sitemap misses changes, and Google uses lastmod only from sites whose dates prove accurate.",
    fix: "Write each page's last significant change as its lastmod, from the same source that stamps the page.",
  },
  'FREQ-001': {
    severity: E,
    title: 'invalid changefreq',
    why: 'changefreq is one of always, hourly, daily, weekly, monthly, yearly, never, in lower case; anything else is "Invalid XML tag value" (and engines ignore changefreq anyway).',
    fix: 'Use one of the seven values in lower case, or leave changefreq out.',
  },
  'PRIO-001': {
    severity: E,
    also: [{ severity: I, when: 'when every URL has the same priority, which tells crawlers nothing' }],
    title: 'invalid priority',
    why: 'priority is a decimal from 0.0 to 1.0; 0,5, 10 or 80% are invalid. As information: when every URL has the same priority, it tells crawlers nothing.',
    fix: 'Write a decimal such as 0.8, give priorities that differ, or leave priority out.',
  },
  // ── Sitemap indexes, text sitemaps and feeds ─────────────────────────────────────────────────────
  'IDX-001': {
    severity: E,
    title: 'invalid sitemap index',
    why: 'A sitemap index holds only <sitemap> elements (loc and an optional lastmod), at most 50,000 of them, in at most 50 MiB ("Too many sitemaps").',
    fix: 'Keep only <sitemap><loc>…</loc><lastmod>…</lastmod></sitemap> children; split a larger set over several indexes submitted separately.',
  },
  'IDX-002': {
    severity: E,
    title: 'nested sitemap index',
    why: 'An index may not list another index ("Nested indexes"); engines do not follow the inner one, so its sitemaps are never read.',
    fix: "List the inner index's children directly in the outer index, or submit the inner index on its own.",
  },
  'IDX-003': {
    severity: E,
    title: 'incomplete URL in sitemap index',
    why: 'A child loc must be a complete URL ("Invalid URL in sitemap index file: incomplete URL"); a relative one is not followed.',
    fix: 'Write each child with its scheme and host.',
  },
  'IDX-004': {
    severity: E,
    also: [
      {
        severity: W,
        when: "when the index may have been submitted in Search Console or named in the other host's robots.txt (SCOPE-EX); an error with --strict-scope",
      },
    ],
    title: 'index child outside the index directory',
    why: 'An index may list only sitemaps on its own host, in its folder or below, unless the sitemaps are cross-submitted. Reported as a warning unless --strict-scope.',
    fix: 'Move the index to the site root, or the child sitemaps under its folder.',
  },
  'IDX-005': {
    severity: W,
    title: 'duplicate, self-referencing or looping index child',
    why: 'A child listed twice, an index that lists itself, or indexes that list each other make crawlers read the same file again, or loop.',
    fix: 'List each sitemap once, in one index.',
  },
  'TXT-001': {
    severity: E,
    also: [{ severity: W, when: 'for blank lines, which are skipped and lose nothing' }],
    title: 'invalid text sitemap line',
    why: 'A text sitemap holds one absolute URL per line and nothing else: a header, a comment or a relative path is not a URL engines can follow.',
    fix: 'Write one absolute, percent-encoded URL per line, UTF-8, at most 50,000 lines.',
  },
  'FEED-001': {
    severity: I,
    title: 'feed used as a sitemap',
    why: 'Google and Bing accept RSS 2.0 and Atom feeds as sitemaps, but Yandex does not, and a feed usually lists only recent items.',
    fix: 'Publish an XML sitemap for the whole site; keep the feed for recent changes.',
  },
  'FEED-002': {
    severity: E,
    also: [
      {
        severity: W,
        when: 'for an item date that is not an RFC 822 or RFC 3339 date (the date is left out, the item kept)',
      },
    ],
    title: 'feed item without a usable link or date',
    why: 'A feed item without a link, or with a relative one, lists no page; a date in the wrong format for the feed (RFC 822 in RSS, RFC 3339 in Atom) is not read.',
    fix: 'Give every item an absolute link and a date in its feed format.',
  },
  // ── Image extension ────────────────────────────────────────────────────────────────────────────
  'IMG-001': {
    severity: E,
    title: 'image without a valid image:loc',
    why: 'Each <image:image> needs exactly one <image:loc> with an absolute URL; without it Google cannot find the image.',
    fix: 'Give every image its absolute URL in <image:loc>.',
  },
  'IMG-002': {
    severity: E,
    title: 'too many images',
    why: 'Google reads at most 1,000 images per page; the rest are ignored.',
    fix: 'Keep the 1,000 images that matter most.',
  },
  'IMG-003': {
    severity: W,
    title: 'deprecated image tag',
    why: 'image:caption, image:title, image:geo_location and image:license were deprecated by Google in August 2022 and are ignored; Search Console may warn about them.',
    fix: 'Remove them; put captions and licences in the page markup instead.',
  },
  'IMG-004': {
    severity: I,
    title: 'image on another host',
    why: 'Images may live on a CDN or another host (the location rule does not apply to them), but crawlers must be allowed to fetch them.',
    fix: "Nothing to fix when both hosts are yours; check that the image host's robots.txt lets crawlers in.",
  },
  // ── Video extension ────────────────────────────────────────────────────────────────────────────
  'VID-001': {
    severity: E,
    title: 'required video tag missing',
    why: 'Google needs a thumbnail, a title, a description, and a content or player location for every video ("Missing thumbnail URL", "Missing video title"); an incomplete video is not shown.',
    fix: 'Add video:thumbnail_loc, video:title, video:description and video:content_loc or video:player_loc.',
  },
  'VID-002': {
    severity: E,
    title: 'video text too long',
    why: 'A video description may be at most 2,048 characters and a title at most 100; longer ones fail the schema and are cut or rejected.',
    fix: 'Shorten the text.',
  },
  'VID-003': {
    severity: E,
    title: 'video location equals the page',
    why: 'content_loc and player_loc must point at the video file or the player, not at the page that shows the video ("Video location and play page location are the same").',
    fix: 'Link the media file in content_loc, or the embeddable player in player_loc.',
  },
  'VID-004': {
    severity: W,
    title: 'video content_loc is not a media file',
    why: 'content_loc must be a media file; an HTML page or a Flash file is not supported ("appears to be a play page URL").',
    fix: 'Link the video file itself, or move the page URL to player_loc.',
  },
  'VID-005': {
    severity: E,
    also: [{ severity: W, when: 'for a view count that is not a whole number of at least 0 (it is left out)' }],
    title: 'video number out of range',
    why: 'duration is whole seconds from 1 to 28,800, rating a number from 0.0 to 5.0, and view_count a whole number of at least 0 (a warning); other values fail the schema.',
    fix: 'Write the values in those ranges.',
  },
  'VID-006': {
    severity: E,
    also: [{ severity: W, when: 'when the only fault is the letter case of the value' }],
    title: 'video yes/no value invalid',
    why: 'family_friendly, requires_subscription and live take yes or no; other values are ignored.',
    fix: 'Write yes or no, in lower case.',
  },
  'VID-007': {
    severity: E,
    also: [{ severity: W, when: 'when the only fault is lower-case country codes' }],
    title: 'invalid video restriction',
    why: 'A restriction needs relationship="allow" or "deny" and space-separated ISO 3166-1 country codes in upper case; an unknown code means the restriction cannot be applied as you meant it.',
    fix: 'Write relationship and two-letter country codes such as GB or US, once per video.',
  },
  'VID-008': {
    severity: E,
    title: 'invalid video platform',
    why: 'A platform element needs relationship="allow" or "deny" and takes only web, mobile and tv.',
    fix: 'Write relationship and the platform names from that list, once per video.',
  },
  'VID-009': {
    severity: E,
    title: 'too many video tags or invalid uploader',
    why: 'A video may have at most 32 tags, and one uploader of at most 255 characters whose info page is on the same domain as the page.',
    fix: 'Keep the 32 most relevant tags; shorten the uploader name; move the info page to your domain or drop it.',
  },
  'VID-010': {
    severity: E,
    title: 'invalid video date',
    why: 'publication_date and expiration_date are W3C dates with at least a day; an invalid one is ignored, and after the expiration date Google stops showing the video.',
    fix: 'Write YYYY-MM-DD or YYYY-MM-DDThh:mm:ss±hh:mm.',
  },
  'VID-011': {
    severity: W,
    title: 'deprecated video tag',
    why: 'category, gallery_loc, price, tvshow and the allow_embed and autoplay attributes were deprecated by Google in August 2022 and are ignored.',
    fix: 'Remove them.',
  },
  'VID-012': {
    severity: W,
    title: 'video URL not fetchable',
    why: 'Page, thumbnail, content and player URLs must be fetchable over HTTP: not blocked by robots.txt, not behind a login, not a streaming protocol.',
    fix: 'Serve them over HTTP(S) and allow crawlers to fetch them.',
  },
  'VID-013': {
    severity: I,
    title: 'thumbnail size',
    why: 'Search Console reports thumbnails that are too small or too large; only fetching the image shows it.',
    fix: 'Use a thumbnail of at least 160×90 and at most 1920×1080 pixels.',
  },
  // ── News extension ─────────────────────────────────────────────────────────────────────────────
  'NEWS-001': {
    severity: E,
    title: 'required news tag missing',
    why: 'A news entry needs news:publication with news:name and news:language, news:publication_date and news:title ("Missing <publication> tag"); Google News cannot use an incomplete one.',
    fix: 'Add the missing tags.',
  },
  'NEWS-002': {
    severity: E,
    title: 'too many news URLs',
    why: 'A news sitemap may hold at most 1,000 news entries ("Too many News URLs").',
    fix: 'Split the news sitemap and list the parts in a sitemap index (sitemapkit generate does).',
  },
  'NEWS-003': {
    severity: W,
    title: 'news article older than 2 days',
    why: 'Google News takes articles from the last 48 hours from a news sitemap; older ones are ignored there.',
    fix: 'Remove the URL or its news:news block after two days, and update one news sitemap in place rather than adding new ones.',
  },
  'NEWS-004': {
    severity: E,
    title: 'invalid news publication date',
    why: 'The publication date must be a full date or a date-time with a zone, the time the article was first published; a year or month alone is refused.',
    fix: 'Write YYYY-MM-DD or YYYY-MM-DDThh:mm:ss±hh:mm, the original publication time.',
  },
  'NEWS-005': {
    severity: E,
    also: [{ severity: W, when: 'when the only fault is the letter case of the language code' }],
    title: 'invalid news language',
    why: 'news:language is an ISO 639 code of two or three letters in lower case, or zh-cn / zh-tw; Google News cannot place an article in another.',
    fix: 'Write the code, such as en, fr or zh-cn.',
  },
  'NEWS-006': {
    severity: W,
    title: 'news name or title',
    why: 'news:name must match the publication name known to Google News, and the title must be the headline alone, without the author, the publication or a date.',
    fix: 'Use the registered publication name and the plain headline.',
  },
  'NEWS-007': {
    severity: W,
    title: 'legacy news tag',
    why: "news:access, news:genres, news:keywords and news:stock_tickers are no longer in Google's reference and are ignored.",
    fix: 'Remove them.',
  },
  // ── hreflang alternates ────────────────────────────────────────────────────────────────────────
  'HREF-001': {
    severity: E,
    title: 'invalid hreflang link',
    why: 'An <xhtml:link> alternate needs rel="alternate", hreflang and an absolute href; without them it names no alternate.',
    fix: 'Write <xhtml:link rel="alternate" hreflang="de" href="https://www.example.com/de/"/> inside the <url>.',
  },
  'HREF-002': {
    severity: E,
    title: 'invalid hreflang value',
    why: 'hreflang is x-default or an ISO 639-1 language, optionally with an ISO 15924 script (zh-Hant) and an ISO 3166-1 alpha-2 region (en-GB); a region alone, en-UK or an unknown code is ignored.',
    fix: 'Write a valid code such as de, en-GB or zh-Hant-TW, or x-default.',
  },
  'HREF-003': {
    severity: E,
    title: 'hreflang cluster incomplete',
    why: 'Each URL must list itself and every other language version; Google ignores a cluster that leaves the URL itself out.',
    fix: "Add the URL's own alternate with its language to its hreflang links.",
  },
  'HREF-004': {
    severity: W,
    title: 'hreflang return link missing',
    why: 'If A names B as an alternate, B must name A back, or Google ignores the pair.',
    fix: 'Give every page of a cluster the same set of alternates.',
  },
  'HREF-005': {
    severity: W,
    also: [
      {
        severity: W,
        when: 'when the alternate is not listed in the sitemaps validated, so its own cluster cannot be checked',
      },
    ],
    title: 'hreflang clusters disagree',
    why: 'One language mapped to two URLs, or pages of one cluster listing different alternates, leave Google unsure which version to show.',
    fix: 'Map each language to one URL and give every page of the cluster the same links; list every alternate as its own <loc>.',
  },
  'HREF-006': {
    severity: I,
    title: 'hreflang advice',
    why: 'An x-default alternate names the page for visitors whose language is not listed; alternates may be on other domains, and should be canonical and indexable.',
    fix: 'Add x-default for a language selector or the generic version.',
  },
  'HREF-007': {
    severity: W,
    title: 'hreflang differs between the sitemap and the page',
    why: 'The sitemap lists one set of alternates for the URL and the live page declares another; Google reads both, and links that disagree leave it unsure which versions belong together.',
    fix: 'Declare the same alternates in both places, or use one method only (sitemap or page).',
  },
  'HREF-008': {
    severity: W,
    title: 'live hreflang return link missing',
    why: 'The sitemap names B as an alternate of A, but the live page B declares hreflang links that do not name A back; Google ignores a pair that does not link both ways.',
    fix: "Add A to the hreflang links of page B (or make B's links agree with the sitemap).",
  },
  // ── Search engines and submission ───────────────────────────────────────────────────────────────
  'ENG-001': {
    severity: W,
    title: 'Google ping is retired',
    why: 'Google retired its sitemap ping endpoint in 2023; it answers 404 and submits nothing.',
    fix: 'Reference the sitemap in robots.txt or submit it in Search Console.',
  },
  'ENG-002': {
    severity: W,
    title: 'Bing ping is retired',
    why: 'Bing removed anonymous sitemap submission in 2022; the ping endpoint submits nothing.',
    fix: 'Reference the sitemap in robots.txt, submit it in Bing Webmaster Tools, or use IndexNow.',
  },
  // ── robots.txt ─────────────────────────────────────────────────────────────────────────────────
  'ROBOTS-001': {
    severity: W,
    title: 'robots.txt over 500 KiB',
    why: 'Google reads at most 500 KiB of robots.txt; rules and Sitemap lines past it are ignored.',
    fix: 'Shorten robots.txt: merge rules, drop comments.',
  },
  'ROBOTS-002': {
    severity: E,
    title: 'relative Sitemap: URL in robots.txt',
    why: 'A Sitemap line must hold an absolute URL; a relative one is "Invalid Sitemap file URL format" for Yandex and may be ignored.',
    fix: 'Write Sitemap: https://www.example.com/sitemap.xml.',
  },
  'ROBOTS-003': {
    severity: W,
    title: 'HTML served as robots.txt',
    why: 'An HTML page at /robots.txt (often an error page) holds no rules and no Sitemap lines.',
    fix: 'Serve a plain-text robots.txt, or a 404 when there is none.',
  },
  'ROBOTS-004': {
    severity: I,
    title: 'robots.txt unreachable: crawl disallowed',
    why: 'A robots.txt that answers 5xx or fails to load means crawlers must assume everything is disallowed.',
    fix: 'Make robots.txt answer 200 (or 404 when there are no rules).',
  },
  'ROBOTS-005': {
    severity: W,
    title: 'robots.txt rules before any user-agent',
    why: 'Allow and Disallow lines before the first User-agent line belong to no group and are ignored.',
    fix: 'Put a User-agent line before the rules.',
  },
  'ROBOTS-006': {
    severity: W,
    title: 'robots.txt declares no sitemap',
    why: 'A Sitemap: line in robots.txt is how every engine (Bing, Yandex, and crawlers you never submitted to) finds the sitemap, and it proves ownership for cross-submission; without one, only the engines you submitted to know of it.',
    fix: 'Add Sitemap: https://www.example.com/sitemap.xml (one line per sitemap or index) to robots.txt.',
  },
  'ROBOTS-007': {
    severity: E,
    title: 'robots.txt Sitemap: line points at nothing',
    why: 'robots.txt names a sitemap that cannot be read (404, an error, no answer, or not a sitemap): engines that follow the line find nothing.',
    fix: "Point the Sitemap: line at the sitemap's current URL, or publish the sitemap there.",
  },
  'ROBOTS-008': {
    severity: W,
    title: 'robots.txt names no sitemap of its own host',
    why: 'Every Sitemap: line of robots.txt names a sitemap on another host, or one that answers 404 (or another 4xx). A sitemap on another host counts only where that host proves the site hands it over; one that does not exist counts for nothing. Either way, engines that read robots.txt find no sitemap of the site there, even when one stands at a well-known location such as /sitemap.xml.',
    fix: "Add a Sitemap: line naming the sitemap on the site's own host (or fix the one named); sitemapkit tries the host's well-known locations and says what it found there.",
  },
  // ── IndexNow ───────────────────────────────────────────────────────────────────────────────────
  'IN-001': {
    severity: E,
    title: 'invalid IndexNow key',
    why: 'An IndexNow key is 8 to 128 characters of letters, digits and dashes; engines refuse another.',
    fix: 'Generate a key in that form.',
  },
  'IN-002': {
    severity: E,
    title: 'IndexNow key file invalid',
    why: 'Engines verify the key by fetching the key file: it must answer 200 with exactly the key as plain text, or submissions are refused (403).',
    fix: 'Publish https://<host>/<key>.txt holding only the key.',
  },
  'IN-003': {
    severity: E,
    title: 'URL outside the IndexNow host',
    why: "Every submitted URL must be on the request's host, and under the key file's folder when keyLocation is used; engines refuse others (422).",
    fix: 'Submit each host separately, with its own key file.',
  },
  'IN-004': {
    severity: E,
    title: 'too many URLs for one IndexNow request',
    why: 'One request may hold at most 10,000 URLs.',
    fix: 'Send the URLs in batches of 10,000.',
  },
  'IN-005': {
    severity: W,
    title: 'IndexNow request not accepted',
    why: 'Any answer other than 200 or 202 means the submission was not taken (400 bad format, 403 key, 422 URLs, 429 too many requests).',
    fix: 'Fix what the status names; back off on 429.',
  },
  // ── sitemapkit's own: safety, limits and input ──────────────────────────────────────────────────
  'SEC-001': {
    severity: E,
    title: 'DTD or entity declaration refused',
    why: 'A DOCTYPE with entity declarations can expand into gigabytes or read local files; sitemapkit never expands them, and sitemaps need none.',
    fix: 'Remove the DOCTYPE and write the text itself.',
  },
  'LIMIT-001': {
    severity: E,
    title: 'text value too long',
    why: 'A single value past the length limit (64 Ki characters by default) is cut, so that one hostile element cannot exhaust memory.',
    fix: 'Shorten the value; no sitemap field needs that much text.',
  },
  'LIMIT-002': {
    severity: E,
    title: 'entry limit reached',
    why: 'Reading stops after the entry limit (10 million by default), so that an endless document ends.',
    fix: 'Split the input; a sitemap holds at most 50,000 URLs anyway.',
  },
  'LIMIT-003': {
    severity: W,
    title: 'sitemap index nested deeper than the depth limit: not followed',
    why: 'Indexes nested past --max-depth are not followed, so that a loop of indexes ends; their sitemaps are not read.',
    fix: 'Flatten the index structure (indexes may not be nested at all), or raise --max-depth.',
  },
  'LIMIT-004': {
    severity: W,
    title: 'cross-file checks stopped at the memory budget',
    why: 'Finding repeated URLs (URL-006, IDX-005) and checking hreflang return links (HREF-004/005) means remembering every URL of a run. So that no input can exhaust memory, a run remembers at most 3,145,728 URLs and 64 MiB of hreflang clusters; past that, repeats of URLs met later are not found.',
    fix: 'Validate fewer files per run (an index and its children are the usual unit), or split the sitemaps.',
  },
  'INPUT-001': {
    severity: E,
    also: [{ severity: W, when: 'for CSV columns that are not read (the lines themselves are kept)' }],
    title: 'input line skipped',
    why: 'A line of a URL list that is no entry (bad JSON, a wrong kind, a missing loc column; in a text list, words, a CSV row or a backslash escape; a line too long to be one; bytes that are not UTF-8) cannot be written.',
    fix: 'Fix the line at the reported place.',
  },
};

/** Every severity `code` may be reported at: the catalog's own first, then its `also` (none for an unknown code). */
export function severitiesOf(code: string): Severity[] {
  const rule = RULES[code];
  return rule === undefined ? [] : [rule.severity, ...(rule.also ?? []).map((other) => other.severity)];
}

/** The family of a code, by its prefix ('URL-003' → Page URLs). */
export function familyOf(code: string): string {
  const prefix = code.slice(0, code.indexOf('-'));
  return FAMILIES.find((family) => family.prefixes.includes(prefix))?.title ?? 'Other';
}
