/**
 * The rules the parser reports (docs/rules.md: the raw document), checked end to end through
 * `validate`: one invalid fixture per rule asserting code, severity, line and column, and valid
 * documents of every kind that yield no errors.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { validateSitemap, type ValidateOptions } from '../../src/validate/index.js';
import { assertDiagnostics, describe, type Expected } from './expect.js';

const DIR = fileURLToPath(new URL('./fixtures/parser/', import.meta.url));
const NOW = new Date('2024-05-02T12:00:00Z');
const A_LOC = 'https://www.example.com/a';

/** [fixture, the expected diagnostic (first, the rule's own) and any it draws, validate options] */
const CASES: [string, Expected | Expected[], ValidateOptions?][] = [
  ['fetch-007.html', { code: 'FETCH-007', severity: 'error', at: '<!DOCTYPE html>' }],
  ['xml-001.xml', { code: 'XML-001', severity: 'error', at: '</url>', nth: 2 }],
  ['xml-002.xml', { code: 'XML-002', severity: 'error', at: '<?xml' }],
  [
    'xml-003.xml',
    [
      { code: 'XML-003', severity: 'error', at: '<?xml' },
      // Read as UTF-8 as the document claims, the Latin-1 é is no character: the loc is badly encoded.
      { code: 'URL-003', severity: 'error', at: 'https://www.example.com/caf' },
    ],
  ],
  ['xml-004.xml', { code: 'XML-004', severity: 'error', at: '<urlset' }],
  ['xml-005.xml', { code: 'XML-005', severity: 'error', at: '&b=2', url: 'https://www.example.com/list?a=1&b=2' }],
  ['xml-006.xml', { code: 'XML-006', severity: 'error', at: 'dai\u0001ly', url: 'https://www.example.com/a' }],
  ['xml-007.xml', { code: 'XML-007', severity: 'error', at: '<foo>', url: 'https://www.example.com/a' }],
  ['xml-008.xml', { code: 'XML-008', severity: 'error', at: '<lastmod>', nth: 2, url: A_LOC }],
  ['xml-009.xml', { code: 'XML-009', severity: 'error', at: '<url>' }],
  ['xml-010.xml', { code: 'XML-010', severity: 'error', at: '<changefreq>', url: A_LOC }],
  ['xml-011.xml', { code: 'XML-011', severity: 'info', at: '<loc>', url: A_LOC }],
  [
    'url-001.xml',
    [
      { code: 'URL-001', severity: 'error', at: '/relative/page.html' },
      { code: 'URL-001', severity: 'error', at: 'ftp://www.example.com/file' },
      // Neither entry has a loc left to list.
      { code: 'XML-009', severity: 'error', at: '<url>' },
      { code: 'XML-009', severity: 'error', at: '<url>', nth: 2 },
    ],
  ],
  ['url-003.xml', { code: 'URL-003', severity: 'error', at: 'https://www.example.com/my page' }],
  ['date-001.xml', { code: 'DATE-001', severity: 'error', at: '21/05/2024', url: A_LOC }],
  ['date-002.xml', { code: 'DATE-002', severity: 'error', at: '2024-05-01T10:00:00', url: A_LOC }],
  ['date-003.xml', { code: 'DATE-003', severity: 'error', at: '2023-02-29', url: A_LOC }],
  ['freq-001.xml', { code: 'FREQ-001', severity: 'error', at: 'Daily', url: A_LOC }],
  ['prio-001.xml', { code: 'PRIO-001', severity: 'error', at: '1.5', url: A_LOC }],
  ['idx-001.xml', { code: 'IDX-001', severity: 'error', at: '<url>' }],
  ['txt-001.txt', { code: 'TXT-001', severity: 'error', at: 'this is not a url' }],
  [
    'feed-002.xml',
    [
      { code: 'FEED-002', severity: 'error', at: '<item>' },
      { code: 'FEED-001', severity: 'info', at: '<?xml' },
    ],
  ],
  ['img-001.xml', { code: 'IMG-001', severity: 'error', at: '<image:image>', url: A_LOC }],
  ['vid-001.xml', { code: 'VID-001', severity: 'error', at: '<video:video>', url: 'https://www.example.com/v' }],
  ['vid-006.xml', { code: 'VID-006', severity: 'error', at: 'maybe' }],
  ['vid-007.xml', { code: 'VID-007', severity: 'error', at: '<video:restriction>' }],
  ['vid-008.xml', { code: 'VID-008', severity: 'error', at: 'web desktop' }],
  ['vid-011.xml', { code: 'VID-011', severity: 'warning', at: '<video:category>' }],
  ['news-001.xml', { code: 'NEWS-001', severity: 'error', at: '<news:news>', url: 'https://www.example.com/n' }],
  ['news-007.xml', { code: 'NEWS-007', severity: 'warning', at: '<news:access>' }],
  ['href-001.xml', { code: 'HREF-001', severity: 'error', at: '<xhtml:link', url: 'https://www.example.com/en/' }],
  ['sec-001.xml', { code: 'SEC-001', severity: 'error', at: '<!DOCTYPE' }],
  [
    'xml-008.xml',
    [
      { code: 'LIMIT-001', severity: 'error', at: 'https://www.example.com/a' },
      // The loc is cut to 10 characters, under the schema's minimum length; the repeated lastmod as above.
      { code: 'URL-002', severity: 'warning', at: 'https://www.example.com/a' },
      { code: 'XML-008', severity: 'error', at: '<lastmod>', nth: 2 },
    ],
    { parseLimits: { maxValueLength: 10 } },
  ],
];

for (const [file, expectedOne, options] of CASES) {
  const expected = Array.isArray(expectedOne) ? expectedOne : [expectedOne];
  const own = expected[0]!;
  test(`${file}: ${own.code} ${own.severity}${options ? ' (with limits)' : ''}`, async () => {
    const result = await validateSitemap(DIR + file, { now: NOW, ...options });
    assertDiagnostics(result.diagnostics, DIR + file, expected);
    assert.equal(result.valid, !expected.some((e) => e.severity === 'error'));
  });
}

/** Problems of the whole byte stream have no line: they are checked by code and severity. */
const DOCUMENT_CASES: [string, string, ValidateOptions?][] = [
  ['fetch-005.xml.gz', 'FETCH-005'],
  ['fetch-005.zip', 'FETCH-005'],
  ['xml-008.xml', 'FETCH-006', { parseLimits: { maxBytes: 64 } }],
  ['date-001.xml', 'LIMIT-002', { parseLimits: { maxEntries: 0 } }],
];

for (const [file, code, options] of DOCUMENT_CASES) {
  test(`${file}: ${code} error${options ? ' (with limits)' : ''}`, async () => {
    const result = await validateSitemap(DIR + file, { now: NOW, ...options });
    const found = result.diagnostics.find((d) => d.code === code);
    assert.ok(found, `${code} expected:\n${describe(result.diagnostics)}`);
    assert.equal(found.severity, 'error');
    assert.equal(result.valid, false);
  });
}

test('URL-009: more than 50,000 URLs in one sitemap', async () => {
  const urls = Array.from({ length: 50_001 }, (_, i) => `<url><loc>https://www.example.com/p/${i}</loc></url>`).join(
    '\n',
  );
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  const result = await validateSitemap({ name: 'big.xml', input: { text } }, { now: NOW });
  const tooMany = result.diagnostics.filter((d) => d.code === 'URL-009');
  assert.equal(tooMany.length, 1, describe(result.diagnostics));
  assert.equal(tooMany[0]!.severity, 'error');
  assert.equal(tooMany[0]!.line, 50_003, 'reported at the 50,001st <url>');
  assert.equal(result.urls, 50_001);
});

test('valid text, RSS and Atom sitemaps yield no errors (feeds get the FEED-001 advice)', async () => {
  for (const [file, kind] of [
    ['valid.txt', 'text'],
    ['valid-rss.xml', 'rss'],
    ['valid-atom.xml', 'atom'],
  ] as const) {
    const result = await validateSitemap(DIR + file, {
      now: NOW,
      location: 'https://www.example.com/sitemap',
      strictScope: true,
    });
    assert.equal(result.kind, kind);
    assert.equal(result.errors + result.warnings, 0, `${file}:\n${describe(result.diagnostics)}`);
    assert.deepEqual(
      result.diagnostics.map((d) => d.code),
      kind === 'text' ? [] : ['FEED-001'],
    );
  }
});
