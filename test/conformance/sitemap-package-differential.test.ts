/**
 * Differential test against the `sitemap` npm package's parser (XMLToSitemapItemStream /
 * XMLToSitemapIndexStream) on the XML documents of the conformance corpus: wherever that parser
 * reads a file at all, both must read the same URLs — except in the disagreements listed below,
 * each explained. The list must match exactly: a new disagreement or a resolved one fails.
 */
import assert from 'node:assert/strict';
import { Readable, type Transform } from 'node:stream';
import { test } from 'node:test';
import { ErrorLevel, XMLToSitemapIndexStream, XMLToSitemapItemStream } from 'sitemap';
import { parseSitemap } from '../../src/parse/index.js';
import { documentBytesOf, loadManifest, type ConformanceCase } from '../helpers/conformance.js';

const DISAGREEMENTS: Record<string, string> = {
  'crawler-commons/inline/index-multiple-loc':
    'a second <loc> in one <sitemap> is read as another sitemap (as crawler-commons expects); sitemap.js keeps only the last',
  'crawler-commons/inline/index-multiple-loc-lastmod': 'same: every <loc> of the broken <sitemap> is a sitemap',
  'crawler-commons/inline/index-unicode-whitespace':
    'sitemapkit trims Unicode whitespace (NBSP, U+2000) around a loc with URL-003; sitemap.js keeps it in the URL',
  'crawler-commons/inline/loc-wraps-url-element':
    'a <loc> holding a <url> holding CDATA: sitemapkit reads the text content (XML-010); sitemap.js yields empty URLs',
  'crawler-commons/inline/sitemapindex-entities-cdata':
    'a loc of text + CDATA + entities: sitemap.js keeps only the first text piece; sitemapkit the whole value',
  'crawler-commons/inline/xinclude':
    'a loc with only an element inside is empty: sitemapkit drops the url (XML-010), sitemap.js yields an empty URL',
  'crawler-commons/inline/xml-needs-normalizing':
    'a relative loc: sitemapkit resolves it against the base URL (URL-001); sitemap.js yields an empty URL',
  'crawler-commons/sitemap.index-missing-loc':
    'a <sitemap> with bare text and no <loc>: sitemapkit reads the text as the URL (XML-009, as crawler-commons expects); sitemap.js reads nothing',
  'crawler-commons/sitemap.ns-prefixed':
    'elements are matched by namespace URI: <sit:loc> is a loc; sitemap.js matches unprefixed names only',
  'sitemap.js/inline/index/loc-2120-chars':
    "URL length (URL-002) is the validator's rule; sitemap.js drops the long loc while parsing",
  'sitemap.js/inline/loc-non-http':
    'a javascript: / data: loc is dropped by sitemapkit (URL-001); sitemap.js yields empty URLs',
  'sitemap.js/inline/loc-too-long':
    "URL length is the validator's rule (URL-002): sitemapkit keeps the loc, sitemap.js yields an empty URL",
  'sitemap.js/inline/multiple-errors':
    'a loc that is not a URL is dropped by sitemapkit (URL-001); sitemap.js yields an empty URL',
};

/** The sitemap package's reading, or undefined when it refuses the file. */
async function readWithSitemapPackage(bytes: Buffer, index: boolean): Promise<string[] | undefined> {
  const options = { level: ErrorLevel.SILENT, logger: false as const };
  const stream: Transform = index ? new XMLToSitemapIndexStream(options) : new XMLToSitemapItemStream(options);
  const urls: string[] = [];
  try {
    // In 64 KiB pieces, as a file stream would hand them (sax is slow on one huge chunk).
    const pieces = Array.from({ length: Math.ceil(bytes.length / 65_536) }, (_, i) =>
      bytes.subarray(i * 65_536, (i + 1) * 65_536),
    );
    for await (const item of Readable.from(pieces).pipe(stream)) urls.push((item as { url: string }).url);
  } catch {
    return undefined;
  }
  return urls;
}

test('differential against the sitemap package on the conformance corpus', async () => {
  const manifest = loadManifest();
  const files = new Map<string, ConformanceCase>();
  for (const c of manifest)
    if ((c.format === 'urlset' || c.format === 'sitemapindex') && !files.has(c.file)) files.set(c.file, c);
  const disagreements: Record<string, { onlyTheirs: string[]; onlyOurs: string[] }> = {};
  let compared = 0;
  for (const c of files.values()) {
    const bytes = documentBytesOf(c);
    const theirs = await readWithSitemapPackage(bytes, c.format === 'sitemapindex');
    if (theirs === undefined) continue;
    compared++;
    const ours: string[] = [];
    for await (const entry of parseSitemap(bytes, { baseUrl: c.base_url ?? undefined })) ours.push(entry.loc);
    const [theirSet, ourSet] = [new Set(theirs), new Set(ours)];
    const onlyTheirs = theirs.filter((url) => !ourSet.has(url));
    const onlyOurs = ours.filter((url) => !theirSet.has(url));
    if (onlyTheirs.length > 0 || onlyOurs.length > 0) disagreements[c.id] = { onlyTheirs, onlyOurs };
  }
  assert.ok(compared > 80, `only ${compared} documents compared`);
  assert.deepEqual(
    Object.keys(disagreements).sort(),
    Object.keys(DISAGREEMENTS).sort(),
    JSON.stringify(disagreements, null, 1).slice(0, 3000),
  );
});
