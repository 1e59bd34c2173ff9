/**
 * The shared rule cases: ONE table of inputs and the codes each part of sitemapkit must report
 * for them. Each case is an entry as the generator takes it; cases.test.ts hands it to
 * prepareEntry (generate), and writes it into a document for parseSitemap (parse) and
 * validateSitemap (validate). Where the three differ, the difference is by design and says why:
 *
 * - the parser reads what a document says and reports what it cannot read or had to repair;
 *   judging values it kept (ranges, code tables, the clock, the scope) is the validator's, so
 *   validate reports the parser's codes and its own;
 * - the generator's input is not a sitemap: what it may write loosely (relative URLs, `Daily`,
 *   `2024-05`, `EN`) is repaired in silence, and what it writes passes validate without errors.
 *
 * `leftOut` names what is not written (generate) or not kept (parse): a field path, 'entry'.
 * `kept` names what must be there, for the values a reader keeps in spite of their problem.
 */
import { LOCATION, SITE, type RawEntry } from './document.js';

export interface Outcome {
  /** The codes, one per problem (default: the case's codes). */
  codes?: string[];
  leftOut?: string;
  kept?: string;
}

export interface RuleCase {
  name: string;
  /** Fields over the base entry `{ loc: LOC }`. */
  entry: RawEntry;
  /** What validate reports, one code per problem. */
  codes: string[];
  generate?: Outcome;
  parse?: Outcome;
}

export const NOW = new Date('2024-05-02T12:00:00Z');
export { LOCATION };
export const LOC = `${SITE}/page`;

const VIDEO = {
  thumbnailLoc: `${SITE}/thumb.jpg`,
  title: 'Pitching a tent',
  description: 'How to pitch a tent in the wind',
  contentLoc: `${SITE}/tent.mp4`,
};
const NEWS = {
  publication: { name: 'Example Times', language: 'en' },
  publicationDate: '2024-05-02T10:00:00Z',
  title: 'Tents sell out',
};
/** A complete cluster: the URL itself and x-default (HREF-003 and HREF-006 stay quiet). */
const CLUSTER = [
  { hreflang: 'en', href: LOC },
  { hreflang: 'x-default', href: LOC },
];

const video = (fields: Record<string, unknown>) => ({ videos: [{ ...VIDEO, ...fields }] });
const news = (fields: Record<string, unknown>) => ({ news: { ...NEWS, ...fields } });
const alternate = (fields: Record<string, unknown>) => ({ alternates: [...CLUSTER, fields] });
/** A judgement on a value the parser keeps: reported by validate and generate, not by parse. */
const judged = { parse: { codes: [] } };

export const CASES: RuleCase[] = [
  // ── a complete entry ────────────────────────────────────────────────────────────────────────
  {
    name: 'a clean entry with every extension',
    entry: {
      lastmod: '2024-05-01',
      changefreq: 'daily',
      priority: 0.8,
      images: [{ loc: `${SITE}/tent.jpg` }],
      ...video({ duration: 120, rating: 4.5, familyFriendly: true, tags: ['tent'] }),
      news: NEWS,
      alternates: [...CLUSTER, { hreflang: 'zh-Hant-TW', href: LOC }],
    },
    codes: [],
  },
  // ── loc ─────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'a relative loc is read against the sitemap location (the generator resolves it against --base-url)',
    entry: { loc: '/page' },
    codes: ['URL-001'],
    generate: { codes: [] },
  },
  {
    name: 'a loc with another scheme is no URL to list (the reader also says the entry is gone, XML-009)',
    entry: { loc: 'ftp://www.example.com/page' },
    codes: ['URL-001', 'XML-009'],
    generate: { codes: ['URL-001'], leftOut: 'entry' },
    parse: { leftOut: 'entry' },
  },
  {
    name: 'a loc with a space is kept and reported as written (the generator percent-encodes it)',
    entry: { loc: `${SITE}/a page` },
    codes: ['URL-003'],
    generate: { codes: [] },
  },
  {
    name: 'a #fragment is never sent to the server (the generator cuts it)',
    entry: { loc: `${LOC}#reviews` },
    codes: ['URL-008'],
    ...judged,
  },
  { name: 'a session ID in the loc', entry: { loc: `${LOC}?sid=42` }, codes: ['URL-007'], ...judged },
  {
    name: 'a loc over 2,048 characters',
    entry: { loc: `${SITE}/${'a'.repeat(2049 - SITE.length - 1)}` },
    codes: ['URL-002'],
    generate: { leftOut: 'entry' },
    ...judged,
  },
  {
    name: 'a loc of exactly 2,048 characters is only a warning',
    entry: { loc: `${SITE}/${'a'.repeat(2048 - SITE.length - 1)}` },
    codes: ['URL-002'],
    ...judged,
  },
  {
    name: 'a loc on another host',
    entry: { loc: 'https://shop.example.org/page' },
    codes: ['URL-004'],
    generate: { leftOut: 'entry' },
    ...judged,
  },
  // ── lastmod, changefreq, priority ─────────────────────────────────────────────────────────────
  {
    name: 'a lastmod in the future (2099-01-01)',
    entry: { lastmod: '2099-01-01' },
    codes: ['DATE-005'],
    generate: { leftOut: 'lastmod' },
    ...judged,
  },
  {
    name: 'a lastmod that is no W3C datetime',
    entry: { lastmod: '21/05/2024' },
    codes: ['DATE-001'],
    generate: { leftOut: 'lastmod' },
    parse: { leftOut: 'lastmod' },
  },
  {
    name: 'a lastmod time without a zone',
    entry: { lastmod: '2024-05-01T10:00' },
    codes: ['DATE-002'],
    generate: { leftOut: 'lastmod' },
    parse: { leftOut: 'lastmod' },
  },
  {
    name: 'a lastmod not on the calendar',
    entry: { lastmod: '2023-02-29' },
    codes: ['DATE-003'],
    generate: { leftOut: 'lastmod' },
    parse: { leftOut: 'lastmod' },
  },
  {
    name: 'a lastmod the schema rejects (a month alone; the generator writes its first day)',
    entry: { lastmod: '2024-05' },
    codes: ['DATE-004'],
    generate: { codes: [], kept: 'lastmod' },
    ...judged,
  },
  {
    name: 'changefreq in capitals (the generator writes it in lower case)',
    entry: { changefreq: 'Daily' },
    codes: ['FREQ-001'],
    generate: { codes: [], kept: 'changefreq' },
    parse: { kept: 'changefreq' },
  },
  {
    name: 'a changefreq that is none',
    entry: { changefreq: 'fortnightly' },
    codes: ['FREQ-001'],
    generate: { leftOut: 'changefreq' },
    parse: { leftOut: 'changefreq' },
  },
  {
    name: 'a priority in per cent',
    entry: { priority: '80%' },
    codes: ['PRIO-001'],
    generate: { leftOut: 'priority' },
    parse: { leftOut: 'priority' },
  },
  {
    name: 'a priority above 1.0',
    entry: { priority: 1.5 },
    codes: ['PRIO-001'],
    generate: { leftOut: 'priority' },
    parse: { leftOut: 'priority' },
  },
  {
    name: 'a priority too small to write without an exponent (5e-324)',
    entry: { priority: 5e-324 },
    codes: ['PRIO-001'],
    generate: { leftOut: 'priority' },
    parse: { leftOut: 'priority' },
  },
  // ── hreflang ───────────────────────────────────────────────────────────────────────────────
  {
    name: 'hreflang xx-ZZ: no language, no country',
    entry: alternate({ hreflang: 'xx-ZZ', href: LOC }),
    codes: ['HREF-002'],
    generate: { leftOut: 'alternates.2' },
    ...judged,
  },
  {
    name: 'hreflang en-UK: the United Kingdom is GB',
    entry: alternate({ hreflang: 'en-UK', href: LOC }),
    codes: ['HREF-002'],
    generate: { leftOut: 'alternates.2' },
    ...judged,
  },
  {
    name: 'hreflang with a script and a region (zh-Hant-TW, sr-Latn)',
    entry: { alternates: [...CLUSTER, { hreflang: 'zh-Hant-TW', href: LOC }, { hreflang: 'sr-Latn', href: LOC }] },
    codes: [],
  },
  {
    name: 'an alternate without hreflang',
    entry: alternate({ href: LOC }),
    codes: ['HREF-001'],
    generate: { leftOut: 'alternates.2' },
    parse: { leftOut: 'alternates.2' },
  },
  {
    name: 'an alternate href that is free text is kept as written, flagged',
    entry: alternate({ hreflang: 'de', href: 'None' }),
    codes: ['HREF-001'],
    generate: { leftOut: 'alternates.2' },
    parse: { kept: 'alternates.2' },
  },
  {
    name: 'alternates that leave the URL itself out (HREF-003)',
    entry: {
      alternates: [
        { hreflang: 'de', href: `${SITE}/de/page` },
        { hreflang: 'x-default', href: `${SITE}/de/page` },
      ],
    },
    codes: ['HREF-003', 'HREF-005'],
    generate: { codes: ['HREF-003'], leftOut: 'alternates' },
    ...judged,
  },
  // ── images ─────────────────────────────────────────────────────────────────────────────────
  {
    name: 'an image without a location',
    entry: { images: [{ caption: 'A tent' }] },
    codes: ['IMG-001'],
    generate: { leftOut: 'images' },
    parse: { leftOut: 'images' },
  },
  {
    name: 'an image location that is free text is kept as written, flagged',
    entry: { images: [{ loc: 'tent picture' }] },
    codes: ['IMG-001'],
    generate: { leftOut: 'images' },
    parse: { kept: 'images.0.loc' },
  },
  {
    name: 'a deprecated image caption is written and reported',
    entry: { images: [{ loc: `${SITE}/tent.jpg`, caption: 'A tent' }] },
    codes: ['IMG-003'],
    ...judged,
  },
  {
    name: 'an image licence that is free text ("Free License") is never resolved into a URL',
    entry: { images: [{ loc: `${SITE}/tent.jpg`, license: 'Free License' }] },
    codes: ['URL-001', 'IMG-003'],
    generate: { codes: ['URL-001'], leftOut: 'images.0.license' },
    parse: { codes: ['URL-001'], kept: 'images.0.license' },
  },
  {
    name: 'more than 1,000 images (the generator writes the first 1,000)',
    entry: { images: Array.from({ length: 1001 }, (_, i) => ({ loc: `${SITE}/i/${i}.jpg` })) },
    codes: ['IMG-002'],
    generate: { leftOut: 'images.1000', kept: 'images.999' },
    ...judged,
  },
  // ── videos ─────────────────────────────────────────────────────────────────────────────────
  {
    name: 'a video with only a thumbnail: parse keeps it, generate does not write it',
    entry: { videos: [{ thumbnailLoc: VIDEO.thumbnailLoc }] },
    codes: ['VID-001'],
    generate: { leftOut: 'videos' },
    parse: { kept: 'videos.0.thumbnailLoc' },
  },
  {
    name: 'a video content_loc that is free text ("None") is kept as written, flagged',
    entry: video({ contentLoc: 'None' }),
    codes: ['URL-001'],
    generate: { leftOut: 'videos' },
    parse: { kept: 'videos.0.contentLoc' },
  },
  {
    name: 'a video content_loc that is the page itself',
    entry: video({ contentLoc: LOC }),
    codes: ['VID-003'],
    generate: { leftOut: 'videos' },
    ...judged,
  },
  {
    name: 'a video content_loc that is a web page',
    entry: video({ contentLoc: `${SITE}/watch.html` }),
    codes: ['VID-004'],
    ...judged,
  },
  {
    name: 'a video description over 2,048 characters',
    entry: video({ description: 'd'.repeat(2049) }),
    codes: ['VID-002'],
    generate: { leftOut: 'videos' },
    ...judged,
  },
  {
    name: 'a video title over 100 characters',
    entry: video({ title: 't'.repeat(101) }),
    codes: ['VID-002'],
    generate: { leftOut: 'videos' },
    ...judged,
  },
  {
    name: 'a video duration of 0 seconds',
    entry: video({ duration: 0 }),
    codes: ['VID-005'],
    generate: { leftOut: 'videos.0.duration', kept: 'videos.0' },
    ...judged,
  },
  {
    name: 'a video duration that is no number',
    entry: video({ duration: 'two' }),
    codes: ['VID-005'],
    generate: { leftOut: 'videos.0.duration' },
    parse: { leftOut: 'videos.0.duration' },
  },
  {
    name: 'a video rating written with an exponent, which the schema does not take',
    entry: video({ rating: '4e0' }),
    codes: ['VID-005'],
    generate: { leftOut: 'videos.0.rating' },
    parse: { leftOut: 'videos.0.rating' },
  },
  {
    name: 'a video rating above 5',
    entry: video({ rating: 6 }),
    codes: ['VID-005'],
    generate: { leftOut: 'videos.0.rating' },
    ...judged,
  },
  {
    name: 'a video view count that is no whole number (a warning; the schema wants one, so it is not written)',
    entry: video({ viewCount: 1.5 }),
    codes: ['VID-005'],
    generate: { leftOut: 'videos.0.viewCount' },
    ...judged,
  },
  {
    name: 'a video yes/no that is neither',
    entry: video({ familyFriendly: 'maybe' }),
    codes: ['VID-006'],
    generate: { leftOut: 'videos.0.familyFriendly' },
    parse: { leftOut: 'videos.0.familyFriendly' },
  },
  {
    name: 'a video yes/no in capitals (the generator writes lower case)',
    entry: video({ live: 'YES' }),
    codes: ['VID-006'],
    generate: { codes: [], kept: 'videos.0.live' },
    parse: { kept: 'videos.0.live' },
  },
  {
    name: 'a video restricted to country ZZ: the generator leaves the video out rather than show it everywhere',
    entry: video({ restriction: { relationship: 'deny', countries: ['GB', 'ZZ'] } }),
    codes: ['VID-007'],
    generate: { leftOut: 'videos' },
    ...judged,
  },
  {
    name: 'video restriction countries in lower case (the generator writes upper case)',
    entry: video({ restriction: { relationship: 'allow', countries: ['gb'] } }),
    codes: ['VID-007'],
    generate: { codes: [], kept: 'videos.0.restriction' },
    ...judged,
  },
  {
    name: 'a video restriction without relationship',
    entry: video({ restriction: { countries: ['GB'] } }),
    codes: ['VID-007'],
    generate: { leftOut: 'videos' },
    parse: { leftOut: 'videos.0.restriction' },
  },
  {
    name: 'a video platform that is none',
    entry: video({ platform: { relationship: 'allow', platforms: ['web', 'phone'] } }),
    codes: ['VID-008'],
    generate: { leftOut: 'videos' },
    parse: { leftOut: 'videos.0.platform' },
  },
  {
    name: 'a video platform that lists none (the document has an empty element: XML-010)',
    entry: video({ platform: { relationship: 'allow', platforms: [] } }),
    codes: ['XML-010'],
    generate: { codes: ['VID-008'], leftOut: 'videos' },
    parse: { leftOut: 'videos.0.platform' },
  },
  {
    name: 'more than 32 video tags',
    entry: video({ tags: Array.from({ length: 33 }, (_, i) => `tag${i}`) }),
    codes: ['VID-009'],
    generate: { leftOut: 'videos.0.tags' },
    ...judged,
  },
  {
    name: "a video uploader's page on another domain",
    entry: video({ uploader: { name: 'Ann', info: 'https://other.example.org/ann' } }),
    codes: ['VID-009'],
    generate: { leftOut: 'videos.0.uploader.info', kept: 'videos.0.uploader.name' },
    ...judged,
  },
  {
    name: 'a video publication date that names no day',
    entry: video({ publicationDate: '2024' }),
    codes: ['VID-010'],
    generate: { leftOut: 'videos.0.publicationDate' },
    ...judged,
  },
  // ── news ───────────────────────────────────────────────────────────────────────────────────
  {
    name: 'news in language qq',
    entry: news({ publication: { name: 'Example Times', language: 'qq' } }),
    codes: ['NEWS-005'],
    generate: { leftOut: 'news' },
    ...judged,
  },
  {
    name: 'news language in capitals (the generator writes lower case)',
    entry: news({ publication: { name: 'Example Times', language: 'EN' } }),
    codes: ['NEWS-005'],
    generate: { codes: [], kept: 'news.publication.language' },
    ...judged,
  },
  {
    name: 'news older than two days is written, with a warning',
    entry: news({ publicationDate: '2024-04-28' }),
    codes: ['NEWS-003'],
    generate: { kept: 'news' },
    ...judged,
  },
  {
    name: 'a news publication date that names no day',
    entry: news({ publicationDate: '2024-05' }),
    codes: ['NEWS-004'],
    generate: { leftOut: 'news' },
    ...judged,
  },
  {
    name: 'news without a title: parse keeps the rest, generate does not write it',
    entry: news({ title: undefined }),
    codes: ['NEWS-001'],
    generate: { leftOut: 'news' },
    parse: { kept: 'news.publication.name' },
  },
  {
    name: 'a news title that repeats the publication name',
    entry: news({ title: 'Example Times: tents sell out' }),
    codes: ['NEWS-006'],
    ...judged,
  },
  {
    name: 'legacy news keywords are written, with a warning',
    entry: news({ keywords: ['tents'] }),
    codes: ['NEWS-007'],
    ...judged,
  },
  {
    name: 'a legacy news genre Google never defined',
    entry: news({ genres: ['Gossip'] }),
    codes: ['NEWS-007'],
    generate: { leftOut: 'news.genres', kept: 'news.title' },
    ...judged,
  },
];
