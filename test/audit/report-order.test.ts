/**
 * The audit's summary and HTML report list the sitemaps' problems worst first (errors, warnings,
 * infos), and never fold an error away; problems are printed in the one human form of every
 * command, `file:line:col: severity CODE message`, long values elided in the middle.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Discovery } from '../../src/audit/discovery.js';
import { auditReport, RowTally } from '../../src/audit/report.js';
import { diagnostic, formatDiagnostic, type Diagnostic } from '../../src/core/diagnostics.js';
import { auditHtml } from '../../src/report/audit-html.js';
import { formatAuditText } from '../../src/report/audit-text.js';

const SITE = 'https://www.example.com/';

/** Problems as a discovery meets them: an info first, eight warnings, the two errors of robots.txt last. */
function discovered(): Discovery['problems'] {
  const problem = (d: Diagnostic) => ({ code: d.code, severity: d.severity, count: 1, examples: [d] });
  const sitemap = `${SITE}sitemap.xml`;
  return [
    problem(diagnostic('XML-011', 'children not in schema order', { source: sitemap, line: 4, column: 7 })),
    ...['URL-006', 'URL-007', 'URL-012', 'URL-013', 'DATE-002', 'XML-012', 'FETCH-002', 'XML-013'].map((code) =>
      problem(diagnostic(code, `a ${code} warning`, { source: sitemap, line: 9, column: 3, severity: 'warning' })),
    ),
    problem(diagnostic('FETCH-001', 'answered HTTP 404: a sitemap must answer 200', { source: `${SITE}news.xml` })),
    problem(
      diagnostic('ROBOTS-007', `${SITE}robots.txt names ${SITE}news.xml, which answers HTTP 404`, {
        source: `${SITE}robots.txt`,
      }),
    ),
  ];
}

function report() {
  const discovery: Discovery = {
    site: SITE,
    sitemaps: [
      {
        url: `${SITE}sitemap.xml`,
        foundBy: 'robots',
        status: 200,
        kind: 'urlset',
        urls: 2,
        ok: true,
        errors: 0,
        warnings: 8,
        infos: 1,
      },
    ],
    entries: 2,
    problems: discovered(),
    httpsHosts: [],
    complete: true,
  };
  return auditReport({
    discovery,
    tally: new RowTally(),
    listed: 2,
    complete: true,
    now: Date.parse('2024-05-02T00:00:00Z'),
  });
}

test('the sitemaps problems come worst first, in the order met within a severity', () => {
  assert.deepEqual(
    report().siteChecks.map((check) => check.code),
    [
      'FETCH-001',
      'ROBOTS-007',
      'URL-006',
      'URL-007',
      'URL-012',
      'URL-013',
      'DATE-002',
      'XML-012',
      'FETCH-002',
      'XML-013',
      'XML-011',
    ],
  );
});

test('the summary never folds an error away, and prints each example as file:line:col: severity CODE message', () => {
  const text = formatAuditText(report());
  const codes = [...text.matchAll(/^ {2}[✗!i·] (\S+)/gmu)].map((m) => m[1]);
  assert.deepEqual(codes.slice(0, 2), ['FETCH-001', 'ROBOTS-007'], text);
  assert.match(text, /… 3 more problems of 3 more codes/);
  assert.match(text, new RegExp(`${SITE}sitemap\\.xml:9:3: warning URL-006 a URL-006 warning`));
  // The HTML report lists them in the same order.
  const html = auditHtml(report());
  assert.ok(html.indexOf('FETCH-001') < html.indexOf('URL-006') && html.indexOf('URL-006') < html.indexOf('XML-011'));
});

test('a long value is elided in the middle in the human line, and kept whole in the diagnostic', () => {
  const loc = `https://www.example.com/${'a'.repeat(65_536)}`;
  const d = diagnostic('URL-002', `the URL ${loc} is too long`, { source: 's.xml', line: 3, column: 8, url: loc });
  const line = formatDiagnostic(d);
  assert.ok(line.length < 300, `${line.length} characters`);
  assert.match(line, /^s\.xml:3:8: error URL-002 the URL https:\/\/www\.example\.com\/a+…a+ is too long$/);
  assert.equal(d.message.length, loc.length + 20);
});
