/**
 * One fixture per rule the validator owns (docs/rules.md), read through the real parser: each case
 * asserts code, severity and the exact line and column, and that the fixture has no errors
 * beyond the expected ones. The clean fixtures exercise every element and must yield nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { validateSitemap, type ValidateOptions } from '../../src/validate/index.js';
import { assertDiagnostics, describe, type Expected } from './expect.js';

const RULES_DIR = fileURLToPath(new URL('./fixtures/rules/', import.meta.url));
const NOW = new Date('2024-05-02T12:00:00Z');
const SITE = 'https://www.example.com';

interface Case {
  file: string;
  options?: ValidateOptions;
  expect: Expected[];
  /** Exact number of diagnostics of a code (to prove what must not be reported). */
  counts?: Record<string, number>;
}

const CASES: Case[] = [
  {
    file: 'url-002.xml',
    expect: [
      { code: 'URL-002', severity: 'error', at: `${SITE}/xxx` },
      { code: 'URL-002', severity: 'warning', at: `${SITE}/yyy` },
      { code: 'URL-002', severity: 'warning', at: 'http://a.io' },
      { code: 'URL-002', severity: 'warning', at: `${SITE}/zzz` },
    ],
    counts: { 'URL-002': 4 },
  },
  {
    file: 'url-004.xml',
    options: { location: `${SITE}/sitemap.xml` },
    expect: [{ code: 'URL-004', severity: 'warning', at: 'https://example.com/b', url: 'https://example.com/b' }],
    counts: { 'URL-004': 1 },
  },
  {
    file: 'url-004.xml',
    options: { location: `${SITE}/sitemap.xml`, strictScope: true },
    expect: [{ code: 'URL-004', severity: 'error', at: 'https://example.com/b' }],
  },
  {
    file: 'url-004.xml',
    options: {},
    expect: [],
    counts: { 'URL-004': 0 },
  },
  {
    file: 'url-005.xml',
    options: { location: `${SITE}/catalog/sitemap.xml` },
    expect: [{ code: 'URL-005', severity: 'warning', at: `${SITE}/images/logo` }],
    counts: { 'URL-005': 1 },
  },
  {
    file: 'url-006.xml',
    expect: [
      { code: 'URL-006', severity: 'warning', at: `${SITE}/a`, nth: 2 },
      { code: 'URL-006', severity: 'warning', at: 'http://www.example.com/a' },
      { code: 'URL-006', severity: 'warning', at: `${SITE}/b` },
    ],
    counts: { 'URL-006': 3 },
  },
  {
    file: 'url-007.xml',
    expect: [
      { code: 'URL-007', severity: 'warning', at: `${SITE}/cart` },
      { code: 'URL-007', severity: 'warning', at: `${SITE}/list?page=2` },
    ],
    counts: { 'URL-007': 2 },
  },
  { file: 'url-008.xml', expect: [{ code: 'URL-008', severity: 'info', at: `${SITE}/guide` }] },
  {
    file: 'date-004.xml',
    expect: [
      { code: 'DATE-004', severity: 'info', at: '2024</lastmod>' },
      { code: 'DATE-004', severity: 'info', at: '2024-04</lastmod>' },
      { code: 'DATE-004', severity: 'info', at: '2024-04-30T10:00+02:00' },
    ],
    counts: { 'DATE-004': 3 },
  },
  {
    file: 'date-005.xml',
    expect: [{ code: 'DATE-005', severity: 'warning', at: '2024-05-08T09:30:00Z' }],
    counts: { 'DATE-005': 1 },
  },
  {
    file: 'date-006.xml',
    expect: [{ code: 'DATE-006', severity: 'warning', at: '2024-05-02T03:00:01Z' }],
    counts: { 'DATE-006': 1 },
  },
  {
    file: 'prio-001.xml',
    expect: [{ code: 'PRIO-001', severity: 'info', at: '0.5</priority>' }],
    counts: { 'PRIO-001': 1 },
  },
  { file: 'xml-012.xml', expect: [{ code: 'XML-012', severity: 'warning', at: '<?xml' }] },
  { file: 'xml-013.xml', expect: [{ code: 'XML-013', severity: 'warning', at: '2024-05-01T10:00:00.111' }] },
  {
    file: 'idx-003.xml',
    expect: [{ code: 'IDX-003', severity: 'error', at: 'sitemap-2.xml' }],
    counts: { 'IDX-003': 1, 'URL-001': 0, 'XML-012': 0 },
  },
  {
    file: 'idx-003.xml',
    options: { location: `${SITE}/sitemaps/index.xml` },
    expect: [{ code: 'IDX-003', severity: 'error', at: 'sitemap-2.xml', url: `${SITE}/sitemaps/sitemap-2.xml` }],
  },
  {
    file: 'idx-004.xml',
    options: { location: `${SITE}/sitemaps/index.xml` },
    expect: [
      { code: 'IDX-004', severity: 'warning', at: 'https://cdn.example.net/sitemaps/b.xml' },
      { code: 'IDX-004', severity: 'warning', at: `${SITE}/other/c.xml` },
    ],
    counts: { 'IDX-004': 2 },
  },
  {
    file: 'idx-004.xml',
    options: { location: `${SITE}/sitemaps/index.xml`, strictScope: true },
    expect: [
      { code: 'IDX-004', severity: 'error', at: 'https://cdn.example.net/sitemaps/b.xml' },
      { code: 'IDX-004', severity: 'error', at: `${SITE}/other/c.xml` },
    ],
  },
  {
    file: 'idx-005.xml',
    options: { location: `${SITE}/sitemaps/index.xml` },
    expect: [
      { code: 'IDX-005', severity: 'warning', at: `${SITE}/sitemaps/a.xml`, nth: 2 },
      { code: 'IDX-005', severity: 'warning', at: `${SITE}/sitemaps/index.xml` },
    ],
    counts: { 'IDX-005': 2 },
  },
  {
    file: 'img-003.xml',
    expect: [
      { code: 'IMG-003', severity: 'warning', at: 'A photo' },
      { code: 'IMG-003', severity: 'warning', at: 'Photo</image:title>' },
    ],
    counts: { 'IMG-003': 2 },
  },
  {
    file: 'img-004.xml',
    expect: [{ code: 'IMG-004', severity: 'info', at: 'https://cdn.example.net/b.jpg' }],
    counts: { 'IMG-004': 1 },
  },
  {
    file: 'vid-003.xml',
    expect: [
      { code: 'VID-003', severity: 'error', at: `${SITE}/v1`, nth: 2 },
      { code: 'VID-003', severity: 'error', at: `${SITE}/v2`, nth: 2 },
    ],
  },
  {
    file: 'vid-004.xml',
    expect: [{ code: 'VID-004', severity: 'warning', at: `${SITE}/watch/123.html` }],
    counts: { 'VID-004': 1 },
  },
  {
    file: 'vid-005.xml',
    expect: [
      { code: 'VID-005', severity: 'error', at: '99999' },
      { code: 'VID-005', severity: 'error', at: '10.5' },
      { code: 'VID-005', severity: 'warning', at: '12.5' },
      { code: 'VID-005', severity: 'error', at: '0</video:duration>' },
    ],
    counts: { 'VID-005': 4 },
  },
  {
    file: 'vid-009.xml',
    expect: [
      { code: 'VID-009', severity: 'error', at: 'tag33' },
      { code: 'VID-009', severity: 'error', at: 'GrillyMcGrillerson' },
    ],
    counts: { 'VID-009': 2 },
  },
  { file: 'vid-007.xml', expect: [{ code: 'VID-007', severity: 'error', at: 'GB UK USA' }], counts: { 'VID-007': 1 } },
  {
    file: 'vid-010.xml',
    expect: [
      { code: 'VID-010', severity: 'error', at: '2024-13-01' },
      { code: 'VID-010', severity: 'error', at: 'next week' },
    ],
  },
  {
    file: 'news-003.xml',
    expect: [{ code: 'NEWS-003', severity: 'warning', at: '2024-04-20T08:00:00+00:00' }],
    counts: { 'NEWS-003': 1 },
  },
  {
    file: 'news-004.xml',
    expect: [
      { code: 'NEWS-004', severity: 'error', at: '2024-05</news' },
      { code: 'NEWS-004', severity: 'error', at: 'May 2nd' },
    ],
  },
  { file: 'news-005.xml', expect: [{ code: 'NEWS-005', severity: 'error', at: 'english' }], counts: { 'NEWS-005': 1 } },
  {
    file: 'news-006.xml',
    expect: [
      { code: 'NEWS-006', severity: 'warning', at: 'The Example Times: harbour' },
      { code: 'NEWS-006', severity: 'warning', at: 'Council approves budget 02/05/2024' },
    ],
  },
  {
    file: 'news-007.xml',
    expect: [
      { code: 'NEWS-007', severity: 'warning', at: 'harbour, storm' },
      { code: 'NEWS-007', severity: 'warning', at: 'PressRelease' },
      { code: 'NEWS-007', severity: 'warning', at: 'NASDAQ:EXMP' },
    ],
  },
  {
    file: 'href-002.xml',
    expect: [
      { code: 'HREF-002', severity: 'error', at: '<xhtml:link rel="alternate" hreflang="en-UK"' },
      { code: 'HREF-002', severity: 'error', at: '<xhtml:link rel="alternate" hreflang="GB"' },
      // GB is no language, so the cluster of /en-gb/ and its alternate disagree.
      { code: 'HREF-005', severity: 'warning', at: '<xhtml:link rel="alternate" hreflang="GB"' },
    ],
    counts: { 'HREF-002': 2 },
  },
  {
    file: 'href-003.xml',
    expect: [
      { code: 'HREF-003', severity: 'error', at: '<xhtml:link' },
      // Without itself, /en/'s cluster is not /de/'s; and x-default's page is not listed to check.
      { code: 'HREF-005', severity: 'warning', at: '<xhtml:link rel="alternate" hreflang="de"' },
      { code: 'HREF-005', severity: 'warning', at: '<xhtml:link rel="alternate" hreflang="x-default"' },
      { code: 'HREF-005', severity: 'warning', at: '<xhtml:link rel="alternate" hreflang="en"' },
      { code: 'HREF-005', severity: 'warning', at: '<xhtml:link rel="alternate" hreflang="x-default"', nth: 2 },
    ],
    counts: { 'HREF-003': 1 },
  },
  {
    file: 'href-004.xml',
    expect: [
      { code: 'HREF-004', severity: 'warning', at: `<xhtml:link rel="alternate" hreflang="de" href="${SITE}/de/"/>` },
      { code: 'HREF-004', severity: 'warning', at: '<xhtml:link rel="alternate" hreflang="fr"' },
    ],
    counts: { 'HREF-004': 2 },
  },
  {
    file: 'href-005.xml',
    expect: [
      {
        code: 'HREF-005',
        severity: 'warning',
        at: `<xhtml:link rel="alternate" hreflang="en" href="${SITE}/en-us/"/>`,
      },
      {
        code: 'HREF-005',
        severity: 'warning',
        at: `<xhtml:link rel="alternate" hreflang="en" href="${SITE}/en/"/>`,
        nth: 2,
      },
      // Two more findings of the same disagreement: /en-us/ is not listed to be checked, and /de/'s cluster differs.
      {
        code: 'HREF-005',
        severity: 'warning',
        at: `<xhtml:link rel="alternate" hreflang="en" href="${SITE}/en-us/"/>`,
      },
      { code: 'HREF-005', severity: 'warning', at: '<xhtml:link rel="alternate" hreflang="de"' },
    ],
  },
  {
    file: 'href-006.xml',
    expect: [{ code: 'HREF-006', severity: 'info', at: '<xhtml:link' }],
    counts: { 'HREF-006': 1 },
  },
];

for (const c of CASES) {
  const label = `${c.file}${c.options?.strictScope ? ' (strict scope)' : ''}${c.options && !c.options.location && c.file.startsWith('url-004') ? ' (no location)' : ''}`;
  test(`${label}: ${[...new Set(c.expect.map((e) => `${e.code} ${e.severity}`))].join(', ') || 'nothing'}`, async () => {
    const path = RULES_DIR + c.file;
    const result = await validateSitemap(path, { now: NOW, ...c.options });
    assertDiagnostics(result.diagnostics, path, c.expect);
    for (const [code, count] of Object.entries(c.counts ?? {})) {
      assert.equal(
        result.diagnostics.filter((d) => d.code === code).length,
        count,
        `${code} count:\n${describe(result.diagnostics)}`,
      );
    }
    const expectedErrors = new Set(c.expect.filter((e) => e.severity === 'error').map((e) => e.code));
    const stray = result.diagnostics.filter((d) => d.severity === 'error' && !expectedErrors.has(d.code));
    assert.deepEqual(stray, [], `no errors beyond the expected ones:\n${describe(stray)}`);
    assert.equal(result.valid, expectedErrors.size === 0);
  });
}

test('clean fixtures exercising every element yield no diagnostics at all', async () => {
  for (const [file, location] of [
    ['clean.xml', `${SITE}/sitemap.xml`],
    ['clean-index.xml', `${SITE}/sitemap_index.xml`],
  ] as const) {
    const result = await validateSitemap(RULES_DIR + file, { now: NOW, location, strictScope: true });
    assert.deepEqual(result.diagnostics, [], `${file}:\n${describe(result.diagnostics)}`);
    assert.equal(result.valid, true);
  }
});
