/**
 * The audit's HTML report stays readable on real data: a far-future (or epoch) lastmod does not
 * squash the month axis, and a "Listed at" place never breaks inside its line number.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { monthColumns } from '../../src/report/svg-charts.js';
import { auditHtml } from '../../src/report/audit-html.js';
import { auditReport, RowTally } from '../../src/audit/report.js';
import type { Discovery } from '../../src/audit/discovery.js';

const columns = (svg: string) => svg.match(/<rect /g)?.length ?? 0;

test('one lastmod in 2999 and one in 1970 are counted apart, not drawn on the month axis', () => {
  const months = [
    { month: '1970-01', count: 1 },
    { month: '2024-01', count: 5 },
    { month: '2024-03', count: 2 },
    { month: '2999-01', count: 3 },
  ];
  const svg = monthColumns('lastmod', months, '2024-05');
  // 2024-01 … 2024-05: the months of real dates and the audit's, nothing stretched to 2999.
  assert.equal(columns(svg), 5);
  assert.match(svg, /3 URLs with a lastmod after 2025-05, not drawn \(latest 2999-01\)/);
  assert.match(svg, /1 URL with a lastmod before 2004-05, not drawn \(earliest 1970-01\)/);
  // Within the range nothing is left out.
  assert.equal(columns(monthColumns('lastmod', months.slice(1, 3), '2024-05')), 5);
  assert.doesNotMatch(monthColumns('lastmod', months.slice(1, 3), '2024-05'), /not drawn/);
});

test('"Listed at" keeps :line:column whole', () => {
  const tally = new RowTally();
  tally.add({
    url: 'https://www.example.com/gone',
    sitemap: 'https://www.example.com/a-rather-long-sitemap-name.xml',
    line: 123456,
    status: 404,
    indexable: false,
    findings: ['http-4xx'],
    details: { 'http-4xx': 'HTTP 404' },
  });
  const discovery = {
    site: 'https://www.example.com/',
    sitemaps: [],
    problems: [],
    robots: undefined,
    httpsHosts: [],
    complete: true,
  } as unknown as Discovery;
  const html = auditHtml(auditReport({ discovery, tally, listed: 1, complete: true, now: Date.UTC(2024, 4, 1) }));
  assert.ok(
    html.includes('https://www.example.com/a-rather-long-sitemap-name.xml<span class="at">:123456</span>'),
    html,
  );
  assert.match(html, /td\.url \.at\{white-space:nowrap/);
});
