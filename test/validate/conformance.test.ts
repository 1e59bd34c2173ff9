/**
 * The conformance corpus (test/conformance/corpus) as an oracle for the validator:
 * - every case upstream marks invalid (valid_strict false) yields at least one error;
 * - every document the official XSDs accept yields no errors, except for documented rules that
 *   go beyond the XSDs (BEYOND_XSD);
 * - every document the XSDs reject is reported with the catalog code of the XSD's reason
 *   (XSD_REASONS maps xmllint's messages to catalog codes);
 * and the same oracle over this suite's own fixtures.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { test } from 'node:test';
import { validateSitemap } from '../../src/validate/index.js';
import type { ValidationResult } from '../../src/validate/types.js';
import { documentBytesOf, loadManifest, type ConformanceCase } from '../helpers/conformance.js';
import { validateManyAgainstXsd, type XsdResult } from '../helpers/xsd.js';
import { describe } from './expect.js';

type Case = ConformanceCase;

const CASES = loadManifest();
const NOW = new Date('2024-05-02T12:00:00Z');
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** Errors for rules of the protocol or of Google that the XSDs do not express. */
const BEYOND_XSD: Record<string, string> = {
  'URL-001': 'anyURI accepts relative and non-http URLs; the protocol wants absolute http(s)',
  'URL-003': 'anyURI accepts characters RFC 3986 forbids',
  'IDX-003': 'the index XSD accepts incomplete child URLs (anyURI)',
  'XML-009': 'an entry whose only loc was refused (URL-001) has no usable loc',
  'XML-007': "video:id is in the 2010 video XSD but not in Google's current reference",
  'HREF-001': 'the XHTML schema makes hreflang optional; Google requires it',
  'HREF-003': "hreflang clusters are Google's rule",
  'SEC-001': 'a DOCTYPE is refused for safety, whatever the schema says',
  'IMG-002': "at most 1,000 images per page is Google's limit",
  'VID-001': 'content_loc or player_loc is required by Google, not by the 2010 video XSD',
  'VID-009': "the uploader info URL on the page's domain is Google's rule",
  'VID-003': "a content_loc or player_loc equal to the page is Google's rule",
  'HREF-002': 'the XHTML schema accepts any language code in hreflang',
  'DATE-002': 'xsd:dateTime accepts a time without a zone; W3C datetime does not',
  'XML-003': "the schema judges decoded text; UTF-8 is the protocol's rule",
};

/** xmllint's reason → the catalog codes that name it (any one of them must be reported). */
const XSD_REASONS: [RegExp, string[]][] = [
  [/parser error : XML declaration allowed only at the start/, ['XML-002']],
  [/parser error : PCDATA invalid Char/, ['XML-006']],
  [/parser error : (?:StartTag|xmlParseEntityRef|EntityRef|Unescaped|invalid element name)/, ['XML-005', 'XML-001']],
  // The document ends inside an element: cut off (XML-014), or an unclosed element (XML-001).
  [/parser error : Premature end of data/, ['XML-014', 'XML-001']],
  [/parser error/, ['XML-001', 'XML-005']],
  [/No matching global declaration available for the validation root/, ['XML-004']],
  [/\}loc': \[facet 'maxLength'\]/, ['URL-002']],
  [/\}loc': \[facet 'minLength'\] The value has a length of '0'/, ['XML-010', 'XML-009']],
  [/\}loc': Element content is not allowed/, ['XML-010']],
  [/\}lastmod': '' is not a valid value/, ['XML-010']],
  [/\}lastmod': '\d{4}(?:-\d\d)?' is not a valid value/, ['DATE-004']],
  [/\}lastmod': '.+' is not a valid value/, ['DATE-001', 'DATE-002', 'DATE-003', 'DATE-004']],
  [/\}priority'/, ['PRIO-001']],
  [/\}changefreq': \[facet 'enumeration'\] The value '' /, ['XML-010']],
  [/\}changefreq': \[facet 'enumeration'\]/, ['FREQ-001']],
  [/sitemap-video\/1\.1\}(?:title|description)': \[facet 'maxLength'\]/, ['VID-002']],
  [/sitemap-video\/1\.1\}(?:duration|rating)'/, ['VID-005']],
  [/sitemap-video\/1\.1\}(?:publication|expiration)_date': '.*' is not a valid value/, ['VID-010']],
  [/sitemap-video\/1\.1\}(?:price|category|tvshow|gallery_loc)': This element is not expected/, ['VID-011']],
  [/sitemap-video\/1\.1\}tag': This element is not expected/, ['VID-009']],
  [/sitemap-news\/0\.9\}publication_date': '.*' is not a valid value/, ['NEWS-004']],
  [/sitemap-news\/0\.9\}(?:access|genres|keywords|stock_tickers)'/, ['NEWS-007']],
  [/sitemap-news\/0\.9\}language': \[facet 'pattern'\]/, ['NEWS-005']],
  [/sitemap-video\/1\.1\}restriction'/, ['VID-007']],
  [/sitemap-video\/1\.1\}platform'/, ['VID-008']],
  [/sitemap-video\/1\.1\}(?:family_friendly|requires_subscription|live)': \[facet 'enumeration'\]/, ['VID-006']],
  [/sitemap-video\/1\.1\}\w+': This element is not expected. Expected is \( \{[^}]+\}title \)/, ['VID-001']],
  [/sitemap-image\/1\.1\}\w+': This element is not expected. Expected is \( \{[^}]+\}loc \)/, ['IMG-001']],
  [/\}urlset': Missing child element/, ['XML-012']],
  [/Missing child element/, ['XML-009', 'VID-001', 'NEWS-001', 'IMG-001']],
  [
    /This element is not expected. Expected is \( \{http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9\}loc \)/,
    ['XML-009', 'XML-011', 'XML-007'],
  ],
  [
    /sitemaps\.org\/schemas\/sitemap\/0\.9\}\w+': This element is not expected/,
    ['XML-011', 'XML-008', 'XML-007', 'IDX-001'],
  ],
  [/Character content other than whitespace is not allowed/, ['XML-009', 'XML-007', 'IDX-001']],
];

/** XSD rejections whose catalog code the validator cannot give, and what it reports instead. */
const XSD_EXCEPTIONS: Record<string, { instead: string; why: string }> = {
  'sitemap.js/inline/multiple-errors': {
    instead: 'URL-001',
    why: 'the entry is dropped for its javascript: loc, so its priority and lastmod are not judged',
  },
};

const bytesOf = documentBytesOf;

async function validateCase(c: Case): Promise<ValidationResult> {
  return validateSitemap(
    { name: c.id, input: new Uint8Array(bytesOf(c)) },
    { now: NOW, ...(c.base_url ? { location: c.base_url } : {}) },
  );
}

test('every case upstream marks invalid yields at least one error', async () => {
  const invalid = CASES.filter((c) => c.expect.valid_strict === false);
  assert.ok(invalid.length >= 40);
  for (const c of invalid) {
    const result = await validateCase(c);
    assert.ok(result.errors > 0, `${c.id}: no error\n${describe(result.diagnostics)}`);
  }
});

/** The corpus's XML documents, each once, with the XSDs' verdict (one xmllint run per schema). */
async function xsdVerdicts(): Promise<{ c: Case; bytes: Buffer; xsd: XsdResult }[]> {
  const seen = new Set<string>();
  const documents = CASES.flatMap((c) => {
    if ((c.format !== 'urlset' && c.format !== 'sitemapindex') || seen.has(c.file)) return [];
    seen.add(c.file);
    const bytes = bytesOf(c);
    // The 50,000-entry cases are covered by the URL-009 and IDX-001 tests.
    return bytes.length > 1_000_000 ? [] : [{ c, bytes, fileName: `${c.id.replace(/[^\w.-]/g, '_')}.xml` }];
  });
  const verdicts = new Map<string, XsdResult>();
  for (const [format, schema] of [
    ['urlset', 'extensions'],
    ['sitemapindex', 'siteindex'],
  ] as const) {
    const batch = documents
      .filter((d) => d.c.format === format)
      .map((d) => ({ fileName: d.fileName, contents: d.bytes.toString('utf8') }));
    for (const [name, verdict] of await validateManyAgainstXsd(batch, schema)) verdicts.set(name, verdict);
  }
  return documents.map((d) => ({ c: d.c, bytes: d.bytes, xsd: verdicts.get(d.fileName)! }));
}

/** Asserts what the XSD oracle demands of one document; returns whether the XSD accepted it. */
function judgeByXsd(id: string, xsd: XsdResult, result: ValidationResult): boolean {
  if (xsd.valid) {
    const unexplained = result.diagnostics.filter((d) => d.severity === 'error' && !BEYOND_XSD[d.code]);
    assert.deepEqual(unexplained, [], `${id}: the XSD accepts it, yet:\n${describe(unexplained)}`);
    return true;
  }
  const codes = new Set(result.diagnostics.map((d) => d.code));
  const unmet = xsd.errors.flatMap((message) => {
    const reason = XSD_REASONS.find(([pattern]) => pattern.test(message));
    return reason && !reason[1].some((code) => codes.has(code))
      ? [`XSD says "${message.slice(0, 160)}"; expected one of ${reason[1].join(', ')}`]
      : [];
  });
  const exception = XSD_EXCEPTIONS[id];
  if (exception) {
    assert.ok(codes.has(exception.instead), `${id}: expected ${exception.instead} (${exception.why})`);
    assert.ok(unmet.length > 0, `${id}: the exception is stale (the validator now gives the XSD's codes); remove it`);
    return false;
  }
  assert.ok(
    result.diagnostics.length > 0,
    `${id}: the XSD rejects it (${xsd.errors[0]}) and the validator says nothing`,
  );
  assert.deepEqual(unmet, [], `${id}: got:\n${describe(result.diagnostics)}`);
  return false;
}

test('the XSDs as oracle over the corpus: accepted documents have no errors beyond documented rules; rejected ones get the matching code', async () => {
  let accepted = 0;
  let rejected = 0;
  for (const { c, xsd } of await xsdVerdicts()) {
    if (judgeByXsd(c.id, xsd, await validateCase(c))) accepted++;
    else rejected++;
  }
  assert.ok(accepted >= 30 && rejected >= 30, `${accepted} accepted, ${rejected} rejected`);
});

test("the XSDs as oracle over this suite's own XML fixtures; the clean ones are XSD-valid", async () => {
  const fixtures = ['rules', 'parser'].flatMap((folder) => {
    const dir = join(FIXTURES, folder);
    return readdirSync(dir)
      .filter((name) => name.endsWith('.xml') && !/^(?:valid-|feed-)/.test(name))
      .map((name) => ({
        id: `${folder}/${name}`,
        path: join(dir, name),
        fileName: `${folder}-${name}`,
        contents: readFileSync(join(dir, name), 'latin1'),
      }));
  });
  const isIndex = (text: string) => text.includes('<sitemapindex');
  const verdicts = new Map([
    ...(await validateManyAgainstXsd(
      fixtures.filter((f) => !isIndex(f.contents)),
      'extensions',
    )),
    ...(await validateManyAgainstXsd(
      fixtures.filter((f) => isIndex(f.contents)),
      'siteindex',
    )),
  ]);
  let rejected = 0;
  for (const fixture of fixtures) {
    const xsd = verdicts.get(fixture.fileName)!;
    if (fixture.id.startsWith('rules/clean')) assert.equal(xsd.valid, true, `${fixture.id}: ${xsd.errors.join('\n')}`);
    if (!judgeByXsd(fixture.id, xsd, await validateSitemap(fixture.path, { now: NOW }))) rejected++;
  }
  assert.ok(rejected >= 30, `${rejected} fixtures rejected by the XSDs`);
});

test('the sitemaps.org samples are clean', async () => {
  for (const c of CASES.filter((c) => c.id.startsWith('sitemaps.org/'))) {
    const result = await validateCase(c);
    assert.equal(result.errors + result.warnings, 0, `${c.id}:\n${describe(result.diagnostics)}`);
  }
});
