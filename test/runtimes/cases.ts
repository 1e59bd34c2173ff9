/**
 * The cases every runtime runs (suite.ts): inputs and expected outputs as data, for the four
 * verbs of `sitemapkit/web` — parse, validate, write (sitemapStream) and serve (serveSitemaps).
 * Diagnostics are written `CODE@line:column` (or `CODE` when the problem has no place); their
 * messages are not compared, since a gzip error's wording is the runtime's own.
 *
 * The gzip inputs are fixed bytes made with zlib (base64 below), so every runtime inflates the
 * same stream whatever its own compressor would write.
 */
import type { ParseOptions, SitemapStreamOptions, ServeSitemapsOptions, UrlInput } from 'sitemapkit/web';

/** How a case's document reaches the API. */
export interface SourceSpec {
  text?: string;
  base64?: string;
  /** Compress with the runtime's CompressionStream before handing it over. */
  gzip?: boolean;
  /** Default 'string' (the text itself). */
  as?: 'string' | 'bytes' | 'arraybuffer' | 'stream' | 'response';
  /** Bytes per chunk of a stream or Response body (default 1,024). */
  chunkSize?: number;
  /** A Response's status (default 200). */
  status?: number;
}

export interface ParseCase {
  kind: 'parse';
  name: string;
  source: SourceSpec;
  options?: Omit<ParseOptions, 'onDiagnostic' | 'signal'>;
  expect: {
    kind: string | null;
    /** Entries in order; with `located`, each as `{ entry, at: 'line:column' }`. */
    entries: unknown[];
    diagnostics: string[];
    located?: boolean;
    /** `ParseError CODE@…` when reading throws. */
    thrown?: string;
    gzip?: boolean;
  };
}

export interface ValidateCase {
  kind: 'validate';
  name: string;
  source: SourceSpec;
  options?: { location?: string; strictScope?: boolean; now?: string; source?: string };
  expect: {
    kind: string | null;
    valid: boolean;
    urls: number;
    errors: number;
    warnings: number;
    diagnostics: string[];
  };
}

export interface WriteCase {
  kind: 'write';
  name: string;
  entries?: UrlInput[];
  /** Generated entries instead: `https://www.example.com/item/N`, N from 0. */
  generate?: { count: number };
  /** Hand the entries over as an async iterable. */
  async?: boolean;
  options: Omit<SitemapStreamOptions, 'onProblem' | 'now'> & { now?: string };
  expect: {
    problems: string[];
    xml?: string;
    locs?: string[];
    thrown?: string;
    /** Read one chunk and stop: at most this many entries may have been taken from the source. */
    pulledAtMost?: number;
  };
}

export interface ServeStep {
  path: string;
  method?: string;
  /** `$previous`: the previous answer's ETag / Last-Modified, sent back. */
  ifNoneMatch?: string;
  ifModifiedSince?: string;
  expect: {
    status: number;
    headers?: Record<string, string | null>;
    weakEtag?: boolean;
    /** The answer read back with parseSitemap; `null`: no body at all. */
    body?: {
      kind: string;
      gzip: boolean;
      count: number;
      first: string;
      last: string;
      lastmods?: string[];
      diagnostics: string[];
    } | null;
    /** Text the body holds (404 and 405 answers explain themselves). */
    text?: string;
  };
}

export interface ServeCase {
  kind: 'serve';
  name: string;
  /** A synthetic set: URL i is https://shop.example.com/p/i with lastmod 2024-(1 + i % 12)-(1 + i % 28). */
  source: { count: number; lastmodHook?: boolean };
  options: Omit<ServeSitemapsOptions, 'onProblem' | 'now'> & { now?: string };
  steps: ServeStep[];
}

export type Case = ParseCase | ValidateCase | WriteCase | ServeCase;

// ---- documents ---------------------------------------------------------------------------------

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const URLSET_OPEN = `${DECLARATION}<urlset xmlns="${SITEMAP_NS}">\n`;

const EXTENSIONS_URLSET = `${DECLARATION}<urlset xmlns="${SITEMAP_NS}"
  xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
  xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"
  xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"
  xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url>
    <loc>https://www.example.com/a?x=1&amp;y=2</loc>
    <lastmod>2024-05-01T10:00:00+00:00</lastmod>
    <changefreq>daily</changefreq>
    <priority>0.8</priority>
    <image:image><image:loc>https://www.example.com/a.jpg</image:loc><image:caption>Café</image:caption></image:image>
    <video:video>
      <video:thumbnail_loc>https://www.example.com/t.jpg</video:thumbnail_loc>
      <video:title>Grilling</video:title>
      <video:description>How to grill</video:description>
      <video:content_loc>https://www.example.com/v.mp4</video:content_loc>
      <video:duration>120</video:duration>
    </video:video>
    <news:news>
      <news:publication><news:name>Example Times</news:name><news:language>en</news:language></news:publication>
      <news:publication_date>2024-05-01</news:publication_date>
      <news:title>Grilling season</news:title>
    </news:news>
    <xhtml:link rel="alternate" hreflang="de" href="https://www.example.com/de/a"/>
  </url>
  <url><loc>https://www.example.com/b</loc></url>
</urlset>
`;

const EXTENSIONS_ENTRIES = [
  {
    kind: 'url',
    loc: 'https://www.example.com/a?x=1&y=2',
    lastmod: '2024-05-01T10:00:00+00:00',
    changefreq: 'daily',
    priority: 0.8,
    images: [{ loc: 'https://www.example.com/a.jpg', caption: 'Café' }],
    videos: [
      {
        thumbnailLoc: 'https://www.example.com/t.jpg',
        title: 'Grilling',
        description: 'How to grill',
        contentLoc: 'https://www.example.com/v.mp4',
        duration: 120,
      },
    ],
    news: {
      publication: { name: 'Example Times', language: 'en' },
      publicationDate: '2024-05-01',
      title: 'Grilling season',
    },
    alternates: [{ hreflang: 'de', href: 'https://www.example.com/de/a' }],
  },
  { kind: 'url', loc: 'https://www.example.com/b' },
];

const TWO_URLS = `${URLSET_OPEN}<url><loc>https://www.example.com/1</loc></url>\n<url><loc>https://www.example.com/2</loc></url>\n</urlset>\n`;
const TWO_ENTRIES = [
  { kind: 'url', loc: 'https://www.example.com/1' },
  { kind: 'url', loc: 'https://www.example.com/2' },
];

/** Café and naïve in UTF-8: split across one-byte chunks, their two-byte characters must come out whole. */
const ACCENTED = `${URLSET_OPEN}<url><loc>https://www.example.com/caf%C3%A9</loc><image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><image:loc>https://www.example.com/i.jpg</image:loc><image:title>Café naïve – 東京</image:title></image:image></url>\n</urlset>\n`;

/** Made with zlib: a urlset of https://www.example.com/g/0 and /g/1, dated 2024-03-01 and 2024-03-02. */
const GZIP_TWO =
  'H4sIAAAAAAACA42PQQqDMBBF955CsjcTbRdtGeOuJ2gPEGJQIZOIE6vHL6JdlUK3j/8efGxW8vnLTTzEUItSKpG7YGM7hK4Wz8e9uIhGZzhPnl3KV/KBa9GnNN4AlmWRPCRHZmQZpw7Y9o4MwwFByavYZY0+Wr15fIhuNTR6J20k6EAhbAP0hhPFVleqOhfqVKgS4cMQttBfufJXrvrOwf5NZ2/VA5L0DAEAAA==';
/** The same, gzipped a second time. */
const GZIP_TWICE =
  'H4sIAAAAAAAAAwGsAFP/H4sIAAAAAAACA42PQQqDMBBF955CsjcTbRdtGeOuJ2gPEGJQIZOIE6vHL6JdlUK3j/8efGxW8vnLTTzEUItSKpG7YGM7hK4Wz8e9uIhGZzhPnl3KV/KBa9GnNN4AlmWRPCRHZmQZpw7Y9o4MwwFByavYZY0+Wr15fIhuNTR6J20k6EAhbAP0hhPFVleqOhfqVKgS4cMQttBfufJXrvrOwf5NZ2/VA5L0DAEAAOf0QI6sAAAA';
/**
 * A gzip header followed by deflate data that is no deflate at all (block type 3). A stream cut
 * in the middle is not a shared case: what comes out before the break is each runtime's own
 * (Node's zlib drops the output of the last chunk, workerd's DecompressionStream gives nothing
 * before the end); test/parse covers it on Node.
 */
const GZIP_CORRUPT = 'H4sIAAAAAAAA//////////8AAA==';
const GZIP_ENTRIES = [
  { kind: 'url', loc: 'https://www.example.com/g/0', lastmod: '2024-03-01' },
  { kind: 'url', loc: 'https://www.example.com/g/1', lastmod: '2024-03-02' },
];

// ---- parse -------------------------------------------------------------------------------------

const PARSE: ParseCase[] = [
  {
    kind: 'parse',
    name: 'parse: a urlset with every extension',
    source: { text: EXTENSIONS_URLSET },
    expect: { kind: 'urlset', entries: EXTENSIONS_ENTRIES, diagnostics: [] },
  },
  {
    kind: 'parse',
    name: 'parse: entries located by line and column',
    source: { text: EXTENSIONS_URLSET },
    expect: {
      kind: 'urlset',
      located: true,
      entries: [
        { entry: EXTENSIONS_ENTRIES[0], at: '7:3' },
        { entry: EXTENSIONS_ENTRIES[1], at: '27:3' },
      ],
      diagnostics: [],
    },
  },
  {
    kind: 'parse',
    name: 'parse: gzip bytes are told from their magic number',
    source: { base64: GZIP_TWO, as: 'bytes' },
    expect: { kind: 'urlset', entries: GZIP_ENTRIES, diagnostics: [], gzip: true },
  },
  {
    kind: 'parse',
    name: 'parse: gzip inside gzip is unwrapped',
    source: { base64: GZIP_TWICE, as: 'arraybuffer' },
    expect: { kind: 'urlset', entries: GZIP_ENTRIES, diagnostics: [], gzip: true },
  },
  {
    kind: 'parse',
    name: 'parse: gzip that does not inflate is reported (FETCH-005)',
    source: { base64: GZIP_CORRUPT, as: 'stream', chunkSize: 7 },
    expect: { kind: 'unknown', entries: [], diagnostics: ['FETCH-005'], gzip: true },
  },
  {
    kind: 'parse',
    name: "parse: the runtime's own gzip of a stream in 7-byte chunks",
    source: { text: TWO_URLS, gzip: true, as: 'stream', chunkSize: 7 },
    expect: { kind: 'urlset', entries: TWO_ENTRIES, diagnostics: [], gzip: true },
  },
  {
    kind: 'parse',
    name: 'parse: UTF-8 split between one-byte chunks',
    source: { text: ACCENTED, as: 'stream', chunkSize: 1 },
    expect: {
      kind: 'urlset',
      entries: [
        {
          kind: 'url',
          loc: 'https://www.example.com/caf%C3%A9',
          images: [{ loc: 'https://www.example.com/i.jpg', title: 'Café naïve – 東京' }],
        },
      ],
      diagnostics: [],
    },
  },
  {
    kind: 'parse',
    name: 'parse: a Response, its URL resolving relative locs',
    source: {
      text: `${URLSET_OPEN}<url><loc>/shop/1</loc></url>\n</urlset>\n`,
      as: 'response',
    },
    options: { baseUrl: 'https://www.example.com/sitemap.xml' },
    expect: {
      kind: 'urlset',
      entries: [{ kind: 'url', loc: 'https://www.example.com/shop/1' }],
      diagnostics: ['URL-001@3:11'],
    },
  },
  {
    kind: 'parse',
    name: 'parse: a Response that is not 200 is not read (FETCH-001)',
    source: { text: '<html><body>Not found</body></html>', as: 'response', status: 404 },
    expect: { kind: null, entries: [], diagnostics: [], thrown: 'ParseError FETCH-001' },
  },
  {
    kind: 'parse',
    name: 'parse: a sitemap index',
    source: {
      text: `${DECLARATION}<sitemapindex xmlns="${SITEMAP_NS}">\n<sitemap><loc>https://www.example.com/s-0.xml.gz</loc><lastmod>2024-05-01</lastmod></sitemap>\n<sitemap><loc>https://www.example.com/s-1.xml.gz</loc></sitemap>\n</sitemapindex>\n`,
    },
    expect: {
      kind: 'sitemapindex',
      entries: [
        { kind: 'sitemap', loc: 'https://www.example.com/s-0.xml.gz', lastmod: '2024-05-01' },
        { kind: 'sitemap', loc: 'https://www.example.com/s-1.xml.gz' },
      ],
      diagnostics: [],
    },
  },
  {
    kind: 'parse',
    name: 'parse: a text sitemap with a line that is no URL',
    source: { text: 'https://www.example.com/1\nnot a url\nhttps://www.example.com/2\n', as: 'bytes' },
    expect: { kind: 'text', entries: TWO_ENTRIES, diagnostics: ['TXT-001@2:1'] },
  },
  {
    kind: 'parse',
    name: 'parse: an RSS feed, its dates made W3C',
    source: {
      text: '<?xml version="1.0"?>\n<rss version="2.0"><channel><title>t</title>\n<item><link>https://www.example.com/post</link><pubDate>Wed, 01 May 2024 10:00:00 GMT</pubDate></item>\n</channel></rss>\n',
    },
    expect: {
      kind: 'rss',
      entries: [{ kind: 'url', loc: 'https://www.example.com/post', lastmod: '2024-05-01T10:00:00+00:00' }],
      diagnostics: [],
    },
  },
  {
    kind: 'parse',
    name: 'parse: an Atom feed',
    source: {
      text: '<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>\n<entry><link href="https://www.example.com/post"/><updated>2024-05-01T10:00:00Z</updated></entry>\n</feed>\n',
    },
    expect: {
      kind: 'atom',
      entries: [{ kind: 'url', loc: 'https://www.example.com/post', lastmod: '2024-05-01T10:00:00Z' }],
      diagnostics: [],
    },
  },
  {
    kind: 'parse',
    name: 'parse: a missing end tag is repaired and said',
    source: {
      text: `${URLSET_OPEN}<url><loc>https://www.example.com/1</loc>\n<url><loc>https://www.example.com/2</loc></url>\n</urlset>\n`,
    },
    expect: { kind: 'urlset', entries: TWO_ENTRIES, diagnostics: ['XML-001@4:1'] },
  },
  {
    kind: 'parse',
    name: 'parse: a UTF-8 byte-order mark is accepted and said (XML-002)',
    source: { text: `\uFEFF${TWO_URLS}`, as: 'bytes' },
    expect: { kind: 'urlset', entries: TWO_ENTRIES, diagnostics: ['XML-002@1:1'] },
  },
  {
    kind: 'parse',
    name: 'parse: an HTML page is no sitemap (FETCH-007)',
    source: { text: '<!DOCTYPE html>\n<html><head><title>Shop</title></head><body></body></html>\n' },
    expect: { kind: 'html', entries: [], diagnostics: ['FETCH-007@1:1'] },
  },
  {
    kind: 'parse',
    name: 'parse: a zip archive is refused (FETCH-005)',
    source: { base64: 'UEsDBBQAAAAIAAAAIQAAAAAAAAAAAAAAAAAAAAAA', as: 'bytes' },
    expect: { kind: 'unknown', entries: [], diagnostics: ['FETCH-005'] },
  },
  {
    kind: 'parse',
    name: 'parse: an empty document (FETCH-001)',
    source: { text: '', as: 'stream' },
    expect: { kind: 'unknown', entries: [], diagnostics: ['FETCH-001'] },
  },
  {
    kind: 'parse',
    name: 'parse: the entry limit stops reading (LIMIT-002)',
    source: {
      text: `${URLSET_OPEN}${[1, 2, 3].map((i) => `<url><loc>https://www.example.com/${i}</loc></url>\n`).join('')}</urlset>\n`,
    },
    options: { limits: { maxEntries: 2 } },
    expect: { kind: 'urlset', entries: TWO_ENTRIES, diagnostics: ['LIMIT-002@5:1'] },
  },
  {
    kind: 'parse',
    name: 'parse: the byte limit stops reading (FETCH-006)',
    source: { text: TWO_URLS, as: 'stream', chunkSize: 16 },
    options: { limits: { maxBytes: 150 } },
    expect: { kind: 'urlset', entries: [TWO_ENTRIES[0]], diagnostics: ['FETCH-006'] },
  },
  {
    kind: 'parse',
    name: 'parse: strict mode stops at the first error, after the entries before it',
    source: {
      text: `${URLSET_OPEN}<url><loc>https://www.example.com/1</loc></url>\n<url><loc>https://www.example.com/2</loc><lastmod>yesterday</lastmod></url>\n</urlset>\n`,
    },
    options: { strict: true },
    expect: {
      kind: 'urlset',
      entries: [TWO_ENTRIES[0]],
      diagnostics: ['DATE-001@4:51'],
      thrown: 'ParseError DATE-001@4:51',
    },
  },
];

// ---- validate ----------------------------------------------------------------------------------

const VALIDATE: ValidateCase[] = [
  {
    kind: 'validate',
    name: 'validate: a clean urlset is valid',
    source: { text: TWO_URLS },
    options: { location: 'https://www.example.com/sitemap.xml' },
    expect: { kind: 'urlset', valid: true, urls: 2, errors: 0, warnings: 0, diagnostics: [] },
  },
  {
    kind: 'validate',
    name: 'validate: field errors and a repeated URL',
    source: {
      text: `${URLSET_OPEN}<url><loc>https://www.example.com/1</loc><lastmod>2024-13-01</lastmod><changefreq>sometimes</changefreq><priority>1.5</priority></url>\n<url><loc>https://www.example.com/1</loc></url>\n</urlset>\n`,
      as: 'bytes',
    },
    options: { now: '2024-06-01T00:00:00Z' },
    expect: {
      kind: 'urlset',
      valid: false,
      urls: 2,
      errors: 3,
      warnings: 1,
      diagnostics: ['DATE-003@3:51', 'FREQ-001@3:83', 'PRIO-001@3:115', 'URL-006@4:11'],
    },
  },
  {
    kind: 'validate',
    name: 'validate: a URL outside the sitemap’s folder (URL-005)',
    source: {
      text: `${URLSET_OPEN}<url><loc>https://www.example.com/shop/1</loc></url>\n<url><loc>https://www.example.com/blog/1</loc></url>\n</urlset>\n`,
      as: 'response',
    },
    options: { location: 'https://www.example.com/shop/sitemap.xml' },
    expect: { kind: 'urlset', valid: true, urls: 2, errors: 0, warnings: 1, diagnostics: ['URL-005@4:11'] },
  },
  {
    kind: 'validate',
    name: 'validate: a Response answering 404 (FETCH-001)',
    source: { text: 'gone', as: 'response', status: 404 },
    expect: { kind: null, valid: false, urls: 0, errors: 1, warnings: 0, diagnostics: ['FETCH-001'] },
  },
  {
    kind: 'validate',
    name: 'validate: a relative child in an index (IDX-003)',
    source: {
      text: `${DECLARATION}<sitemapindex xmlns="${SITEMAP_NS}">\n<sitemap><loc>/s-0.xml</loc></sitemap>\n</sitemapindex>\n`,
      gzip: true,
      as: 'bytes',
    },
    expect: { kind: 'sitemapindex', valid: false, urls: 0, errors: 1, warnings: 0, diagnostics: ['IDX-003@3:15'] },
  },
];

// ---- write -------------------------------------------------------------------------------------

const WRITE_BASE = 'https://www.example.com/';

const WRITE: WriteCase[] = [
  {
    kind: 'write',
    name: 'write: entries become one urlset, relative locs resolved',
    entries: [
      { loc: 'https://www.example.com/a?x=1&y=2', lastmod: '2024-05-01', priority: 1 },
      { loc: 'b', changefreq: 'weekly' },
    ],
    options: { baseUrl: WRITE_BASE, namespaces: [], now: '2024-06-01T00:00:00Z' },
    expect: {
      problems: [],
      xml:
        `${DECLARATION}<urlset xmlns="${SITEMAP_NS}">\n` +
        '<url><loc>https://www.example.com/a?x=1&amp;y=2</loc><lastmod>2024-05-01</lastmod><priority>1.0</priority></url>\n' +
        '<url><loc>https://www.example.com/b</loc><changefreq>weekly</changefreq></url>\n' +
        '</urlset>\n',
    },
  },
  {
    kind: 'write',
    name: 'write: gzip through CompressionStream',
    entries: [{ loc: 'https://www.example.com/c', images: [{ loc: 'https://www.example.com/c.jpg' }] }],
    options: { baseUrl: WRITE_BASE, namespaces: ['image'], gzip: true },
    expect: {
      problems: [],
      xml:
        `${DECLARATION}<urlset xmlns="${SITEMAP_NS}" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n` +
        '<url><loc>https://www.example.com/c</loc><image:image><image:loc>https://www.example.com/c.jpg</image:loc></image:image></url>\n' +
        '</urlset>\n',
    },
  },
  {
    kind: 'write',
    name: 'write: bad entries are dropped, bad fields left out, repeats written once',
    entries: [
      { loc: 'ftp://www.example.com/x' },
      { loc: 'https://www.example.com/d', lastmod: '2099-01-01', priority: 7 },
      { loc: 'https://other.example.net/e' },
      { loc: 'https://www.example.com/d' },
    ],
    options: { baseUrl: WRITE_BASE, namespaces: [], now: '2024-06-01T00:00:00Z' },
    async: true,
    expect: {
      problems: [
        'URL-001 ftp://www.example.com/x',
        'DATE-005 https://www.example.com/d',
        'PRIO-001 https://www.example.com/d',
        'URL-004 https://other.example.net/e',
        'URL-006 https://www.example.com/d',
      ],
      xml: `${DECLARATION}<urlset xmlns="${SITEMAP_NS}">\n<url><loc>https://www.example.com/d</loc></url>\n</urlset>\n`,
    },
  },
  {
    kind: 'write',
    name: 'write: strict mode errors the stream at the first error',
    entries: [{ loc: 'https://www.example.com/f' }, { loc: 'https://www.example.com/g', priority: 2 }],
    options: { baseUrl: WRITE_BASE, strict: true },
    expect: {
      problems: [],
      thrown:
        'GenerateError: stopped at the first problem (strict): priority: priority must be a decimal from 0.0 to 1.0, not 2; priority is left out',
    },
  },
  {
    kind: 'write',
    name: 'write: more URLs than one document may hold error the stream',
    generate: { count: 4 },
    options: { baseUrl: WRITE_BASE, maxUrls: 3 },
    expect: {
      problems: [],
      thrown:
        'GenerateError: the entries need more than 3 URLs, the most one sitemap may hold; serve them with serveSitemaps (a paged source) or write them with writeSitemaps, which split them into several sitemaps',
    },
  },
  {
    kind: 'write',
    name: 'write: 50,000 URLs, read no faster than they are taken (backpressure)',
    generate: { count: 50_000 },
    options: { baseUrl: WRITE_BASE },
    expect: { problems: [], pulledAtMost: 5_000 },
  },
  {
    kind: 'write',
    name: 'write: 50,000 URLs in one document',
    generate: { count: 50_000 },
    async: true,
    options: { baseUrl: WRITE_BASE, gzip: true },
    expect: {
      problems: [],
      locs: Array.from({ length: 50_000 }, (_, i) => `https://www.example.com/item/${i}`),
    },
  },
];

// ---- serve -------------------------------------------------------------------------------------

const SHOP = 'https://shop.example.com/';
const XML_TYPE = 'application/xml; charset=utf-8';
const SERVE_NOW = '2025-01-01T00:00:00Z';

const SERVE: ServeCase[] = [
  {
    kind: 'serve',
    name: 'serve: the index of a set of three pages, and its shards',
    source: { count: 120 },
    options: { baseUrl: SHOP, pageSize: 50, now: SERVE_NOW },
    steps: [
      {
        path: '/sitemap.xml',
        expect: {
          status: 200,
          headers: { 'content-type': XML_TYPE, 'last-modified': null },
          weakEtag: true,
          body: {
            kind: 'sitemapindex',
            gzip: false,
            count: 3,
            first: 'https://shop.example.com/sitemap-0.xml',
            last: 'https://shop.example.com/sitemap-2.xml',
            diagnostics: [],
          },
        },
      },
      {
        path: '/sitemap-1.xml',
        expect: {
          status: 200,
          headers: { 'content-type': XML_TYPE, 'last-modified': 'Sat, 28 Dec 2024 00:00:00 GMT' },
          weakEtag: true,
          body: {
            kind: 'urlset',
            gzip: false,
            count: 50,
            first: 'https://shop.example.com/p/50',
            last: 'https://shop.example.com/p/99',
            lastmods: ['2024-03-23', '2024-04-24'],
            diagnostics: [],
          },
        },
      },
      { path: '/sitemap-1.xml', ifNoneMatch: '$previous', expect: { status: 304, body: null } },
      {
        path: '/sitemap-1.xml',
        ifModifiedSince: 'Sat, 28 Dec 2024 00:00:00 GMT',
        expect: { status: 304, headers: { 'last-modified': 'Sat, 28 Dec 2024 00:00:00 GMT' }, body: null },
      },
      {
        path: '/sitemap-1.xml',
        ifModifiedSince: 'Fri, 27 Dec 2024 23:59:59 GMT',
        expect: { status: 200, headers: { 'content-type': XML_TYPE } },
      },
      {
        path: '/sitemap-2.xml.gz',
        expect: {
          status: 200,
          headers: { 'content-type': 'application/gzip' },
          body: {
            kind: 'urlset',
            gzip: true,
            count: 20,
            first: 'https://shop.example.com/p/100',
            last: 'https://shop.example.com/p/119',
            diagnostics: [],
          },
        },
      },
      { path: '/sitemap-3.xml', expect: { status: 404, text: 'there is no shard 3' } },
      {
        path: '/sitemap-01.xml',
        expect: { status: 404, text: 'the entry point is https://shop.example.com/sitemap.xml' },
      },
      { path: '/sitemap-1.xml', method: 'POST', expect: { status: 405, headers: { allow: 'GET, HEAD' } } },
      {
        path: '/sitemap-0.xml',
        method: 'HEAD',
        expect: { status: 200, headers: { 'content-type': XML_TYPE }, body: null },
      },
    ],
  },
  {
    kind: 'serve',
    name: 'serve: a set that fits one page is one urlset at the entry point',
    source: { count: 30 },
    options: { baseUrl: SHOP, pageSize: 50, now: SERVE_NOW },
    steps: [
      {
        path: '/sitemap.xml',
        expect: {
          status: 200,
          headers: { 'content-type': XML_TYPE, 'last-modified': 'Tue, 24 Dec 2024 00:00:00 GMT' },
          body: {
            kind: 'urlset',
            gzip: false,
            count: 30,
            first: 'https://shop.example.com/p/0',
            last: 'https://shop.example.com/p/29',
            diagnostics: [],
          },
        },
      },
      { path: '/sitemap-0.xml', expect: { status: 404, text: 'the set fits one sitemap' } },
    ],
  },
  {
    kind: 'serve',
    name: 'serve: gzip shards under a folder, lastmods from the source',
    source: { count: 100, lastmodHook: true },
    // The pages live outside /maps/: robots.txt names the index, which allows that (cross-submission).
    options: {
      baseUrl: `${SHOP}maps/`,
      pageSize: 40,
      gzip: true,
      fileBaseName: 'products',
      allowOtherHosts: true,
      now: SERVE_NOW,
    },
    steps: [
      {
        path: '/maps/products.xml',
        expect: {
          status: 200,
          headers: { 'last-modified': 'Sat, 28 Dec 2024 00:00:00 GMT' },
          body: {
            kind: 'sitemapindex',
            gzip: false,
            count: 3,
            first: 'https://shop.example.com/maps/products-0.xml.gz',
            last: 'https://shop.example.com/maps/products-2.xml.gz',
            lastmods: ['2024-12-24T00:00:00Z', '2024-12-20T00:00:00Z', '2024-12-28T00:00:00Z'],
            diagnostics: [],
          },
        },
      },
      { path: '/maps/products.xml', ifNoneMatch: '$previous', expect: { status: 304 } },
      {
        path: '/maps/products-2.xml.gz',
        expect: {
          status: 200,
          headers: { 'content-type': 'application/gzip', 'last-modified': 'Sat, 28 Dec 2024 00:00:00 GMT' },
          body: {
            kind: 'urlset',
            gzip: true,
            count: 20,
            first: 'https://shop.example.com/p/80',
            last: 'https://shop.example.com/p/99',
            diagnostics: [],
          },
        },
      },
      { path: '/sitemap.xml', expect: { status: 404 } },
    ],
  },
  {
    kind: 'serve',
    name: 'serve: the 200th shard of 10,000,000 URLs',
    source: { count: 10_000_000 },
    options: { baseUrl: SHOP, now: SERVE_NOW },
    steps: [
      {
        path: '/sitemap-199.xml',
        expect: {
          status: 200,
          body: {
            kind: 'urlset',
            gzip: false,
            count: 50_000,
            first: 'https://shop.example.com/p/9950000',
            last: 'https://shop.example.com/p/9999999',
            diagnostics: [],
          },
        },
      },
      { path: '/sitemap-200.xml', expect: { status: 404, text: 'there is no shard 200 (200 shards)' } },
    ],
  },
];

export const CASES: readonly Case[] = [...PARSE, ...VALIDATE, ...WRITE, ...SERVE];
