/**
 * `sitemapkit audit` on the fixture site of issue 12 (an https site on 127.0.0.1 with a URL for
 * every finding, and clean ones): the exact findings of every listed URL in --rows, the same in
 * --json and the terminal summary, the sitemaps' own problems, --crawl's orphans and pages not
 * listed, CSV rows, the deterministic sample, and the exit codes of --fail-on and --max-errors.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { AuditReport } from '../../src/audit/report.js';
import type { AuditRow } from '../../src/audit/rows.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import {
  CERT_FILE,
  EXPECTED,
  INDEXABLE,
  NOT_LISTED,
  NOW,
  ORPHANS,
  SITE_CODES,
  SCRIPT_BREAKER,
  serveAuditSite,
  type AuditFixture,
} from './fixtures/audit-site.js';

/** The audit's child process trusts the fixture's certificate, as a site's real one would be. */
const ENV = { NODE_EXTRA_CA_CERTS: CERT_FILE };

describe('sitemapkit audit on the fixture site', () => {
  let fixture: AuditFixture;
  let dir: string;
  /** The audit every test reads (other runs resume its state: the report again, no request). */
  let main: { code: number | null; report: AuditReport; rows: AuditRow[]; stderr: string };
  before(async () => {
    fixture = await serveAuditSite();
    dir = mkdtempSync(join(tmpdir(), 'sitemapkit-audit-'));
    const rowsFile = join(dir, 'rows.jsonl');
    const result = await audit('main', '--rows', rowsFile, '--json');
    main = {
      code: result.code,
      report: JSON.parse(result.stdout) as AuditReport,
      rows: readRows(rowsFile),
      stderr: result.stderr,
    };
  });
  after(async () => {
    await fixture.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const audit = (name: string, ...extra: string[]): Promise<CliResult> =>
    runCli(
      [
        'audit',
        fixture.site.origin,
        '--now',
        NOW,
        '--state',
        join(dir, `state-${name}`),
        '--retries',
        '0',
        '--max-page-bytes',
        '65536',
        ...extra,
      ],
      { env: ENV },
    );
  /** The main audit again, from its state: only the report is made anew. */
  const again = (...extra: string[]) => audit('main', '--resume', ...extra);
  const readRows = (file: string): AuditRow[] =>
    readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as AuditRow);
  const byUrl = (rows: AuditRow[]) => new Map(rows.map((row) => [row.url, row]));

  it('gives every listed URL its exact findings, once, in the order listed, and clean URLs none', () => {
    assert.equal(main.code, 1, main.stderr);
    const rows = main.rows;
    assert.equal(rows.length, Object.keys(EXPECTED).length, 'one row per listed URL (the duplicate once)');
    const rowOf = byUrl(rows);
    for (const [key, findings] of Object.entries(EXPECTED)) {
      const row = rowOf.get(fixture.url(key));
      assert.ok(row, `a row for ${key}`);
      assert.deepEqual(row.findings, findings, `${key}: ${JSON.stringify(row.details)}`);
      assert.deepEqual(Object.keys(row.details).sort(), [...findings].sort(), `${key}: a detail per finding`);
      assert.equal(row.indexable, INDEXABLE.includes(key), `${key} indexable`);
    }
    assert.deepEqual(
      rows.slice(0, 3).map((row) => [row.url, row.line]),
      [
        [fixture.url('/'), 3],
        [fixture.url('/clean-a'), 4],
        [fixture.url('/clean-b'), 5],
      ],
    );
  });

  it('says what each row is about: status, final URL and whether it is listed, dates, sitemap and line', () => {
    const rowOf = byUrl(main.rows);
    const moved = rowOf.get(fixture.url('/moved'))!;
    assert.equal(moved.status, 301);
    assert.equal(moved.finalUrl, fixture.url('/clean-a'));
    assert.equal(moved.finalStatus, 200);
    assert.equal(moved.targetListed, true);
    const twin = rowOf.get(fixture.url('twin:/plain'))!;
    assert.equal(twin.targetListed, false, 'the https page is not listed');
    const stale = rowOf.get(fixture.url('/stale-header'))!;
    assert.equal(stale.lastmod, '2024-01-01');
    assert.equal(stale.lastModified, '2024-05-20T08:00:00Z');
    assert.equal(stale.sitemap, fixture.url('/sitemap-more.xml'));
    assert.equal(stale.line, 6);
    assert.equal(rowOf.get(fixture.url('/stale-jsonld'))!.pageModified, '2024-03-15T12:00:00Z');
    assert.equal(rowOf.get(fixture.url('/clean-a'))!.lastModified, undefined, 'a Last-Modified of "now" says nothing');
    assert.equal(rowOf.get(fixture.url('/doc.pdf'))!.contentType, 'application/pdf');
    assert.equal(rowOf.get(fixture.url('/canonical-other'))!.canonical, fixture.url('/clean-a'));
    assert.equal(rowOf.get(fixture.url('/private/page'))!.status, undefined, 'robots-blocked URLs are not fetched');
    assert.match(rowOf.get(fixture.url('/dup'))!.details['duplicate-listing']!, /sitemap-more\.xml:3: .*listed again/);
    assert.equal(
      fixture.site.requests.filter((path) => path === '/private/page' || path === '/google-blocked').length,
      0,
      'robots-blocked URLs were never requested',
    );
  });

  it('--json: counts per finding equal the rows, with examples; the sitemaps own problems beside them', () => {
    const report = main.report;
    assert.equal(report.site, `${fixture.site.origin}/`);
    assert.equal(report.complete, true);
    assert.equal(report.now, '2024-06-01T00:00:00.000Z');
    const listed = Object.keys(EXPECTED).length;
    assert.deepEqual(report.urls, { listed, checked: listed, indexable: INDEXABLE.length });
    assert.deepEqual(
      { count: report.sitemaps.count, read: report.sitemaps.read, failed: report.sitemaps.failed },
      { count: 5, read: 4, failed: 1 },
    );
    const expectedCounts = new Map<string, number>();
    for (const findings of Object.values(EXPECTED))
      for (const finding of findings) expectedCounts.set(finding, (expectedCounts.get(finding) ?? 0) + 1);
    assert.deepEqual(
      new Map(report.checks.map((check) => [check.finding, check.count])),
      expectedCounts,
      'one check per finding that occurred, counted',
    );
    const http4xx = report.checks.find((check) => check.finding === 'http-4xx')!;
    assert.deepEqual(
      { code: http4xx.code, severity: http4xx.severity, title: http4xx.title },
      { code: 'URL-011', severity: 'error', title: 'URL answers 4xx' },
    );
    assert.deepEqual(http4xx.examples[0], {
      url: fixture.url('/gone'),
      sitemap: fixture.url('/sitemap-pages.xml'),
      line: 6,
      detail: 'HTTP 404',
    });
    assert.ok(
      report.checks.every((check, i, all) => i === 0 || rank(all[i - 1]!.severity) <= rank(check.severity)),
      'errors first',
    );
    assert.deepEqual(
      report.siteChecks.map((check) => check.code).sort(),
      [...SITE_CODES].sort(),
      JSON.stringify(report.siteChecks.map((check) => [check.code, check.examples[0]?.detail])),
    );
    const robots7 = report.siteChecks.find((check) => check.code === 'ROBOTS-007')!;
    assert.match(robots7.examples[0]!.detail, /names .*\/missing-sitemap\.xml, which answers HTTP 404/);
    const url3 = report.siteChecks.find((check) => check.code === 'URL-003')!;
    assert.deepEqual(
      { sitemap: url3.examples[0]!.sitemap, line: url3.examples[0]!.line },
      { sitemap: fixture.url('/sitemap-pages.xml'), line: 7 },
      'validator problems keep their file and line',
    );
    const sum = (severity: string) =>
      [...report.checks, ...report.siteChecks]
        .filter((check) => check.severity === severity)
        .reduce((total, check) => total + check.count, 0);
    assert.deepEqual(report.summary, { errors: sum('error'), warnings: sum('warning'), infos: sum('info') });
    assert.ok(report.summary.errors > 0);
    const statuses = new Map(report.charts.statuses.map((bar) => [bar.label, bar.count]));
    assert.equal(statuses.get('404'), 2);
    assert.equal(statuses.get('blocked'), 2);
    assert.equal(
      report.charts.statuses.reduce((total, bar) => total + bar.count, 0),
      listed,
    );
    assert.deepEqual(report.charts.indexable, { indexable: INDEXABLE.length, notIndexable: listed - INDEXABLE.length });
    assert.ok(report.charts.lastmodByMonth.some((month) => month.month === '2030-01' && month.count === 1));
  });

  it('prints a one-screen summary: counts per finding, two examples each, the report files', async () => {
    const html = join(dir, 'summary.html');
    const result = await again('--html', html);
    assert.equal(result.code, 1);
    const lines = result.stdout.split('\n');
    assert.ok(lines.length < 80, `${lines.length} lines`);
    assert.match(result.stdout, /^Audit of https:\/\/127\.0\.0\.1:\d+\/ {2}at 2024-06-01T00:00:00\.000Z$/m);
    assert.match(result.stdout, /^URLs {6}27 listed · 27 checked · 15 indexable \(55\.6%\)$/m);
    assert.match(
      result.stdout,
      /^ {2}✗ http-4xx +URL-011 {2}2 {2}URL answers 4xx\n {6}https:\/\/\S+\/gone {2}HTTP 404\n/m,
    );
    assert.match(result.stdout, /^ {2}! lastmod-stale +DATE-008 3 .*\n.*\n.*\n {6}… 1 more$/m);
    assert.match(result.stdout, /^The sitemaps themselves$/m);
    assert.match(result.stdout, new RegExp(`report ${html.replaceAll('/', '\\/')}`));
    assert.match(result.stderr, /findings at or above error/);
    assert.ok(result.stdout.includes(SCRIPT_BREAKER), 'the terminal shows a URL as it is listed');
  });

  it('--crawl: orphans among the listed URLs, and a row for each indexable page no sitemap lists', async () => {
    const rowsFile = join(dir, 'crawl.jsonl');
    const result = await audit('crawl', '--crawl', '--rows', rowsFile, '--json');
    const report = JSON.parse(result.stdout) as AuditReport;
    assert.equal(report.complete, true, result.stderr);
    assert.equal(report.crawl?.finished, true);
    const rows = readRows(rowsFile);
    const rowOf = byUrl(rows);
    for (const [key, findings] of Object.entries(EXPECTED)) {
      const expected = ORPHANS.includes(key) ? [...findings, 'orphan'] : findings;
      assert.deepEqual(rowOf.get(fixture.url(key))?.findings, expected, key);
    }
    const unlisted = rows.filter((row) => row.listed === false);
    assert.deepEqual(
      unlisted.map((row) => [row.url, row.findings]),
      NOT_LISTED.map((path) => [fixture.url(path), ['not-listed']]),
    );
    assert.equal(report.urls.notListed, NOT_LISTED.length);
    assert.deepEqual(
      report.checks.filter((check) => check.finding === 'orphan' || check.finding === 'not-listed').map((c) => c.count),
      [ORPHANS.length, NOT_LISTED.length],
    );
  });

  it('--rows FILE.csv writes the same rows as CSV', async () => {
    const csvFile = join(dir, 'rows.csv');
    await again('--rows', csvFile);
    const records = parse<Record<string, string>>(readFileSync(csvFile), { columns: true });
    assert.equal(records.length, Object.keys(EXPECTED).length);
    const moved = records.find((record) => record.url === fixture.url('/moved'))!;
    assert.equal(moved.status, '301');
    assert.equal(moved.finalUrl, fixture.url('/clean-a'));
    assert.equal(moved.findings, 'redirect');
    const twin = records.find((record) => record.url === fixture.url('twin:/plain'))!;
    assert.equal(twin.findings, 'redirect http-on-https');
    assert.match(twin.details ?? '', /^http-on-https: .*; redirect: HTTP 301/);
  });

  it('--max-urls checks the same deterministic sample every run, and says so', async () => {
    const first = JSON.parse((await audit('sample-1', '--max-urls', '10', '--json')).stdout) as AuditReport;
    const rowsFile = join(dir, 'sample.jsonl');
    const second = JSON.parse(
      (await audit('sample-2', '--max-urls', '10', '--json', '--rows', rowsFile)).stdout,
    ) as AuditReport;
    assert.equal(first.urls.listed, Object.keys(EXPECTED).length);
    assert.equal(first.urls.checked, 10);
    assert.equal(first.sample?.size, 10);
    assert.equal(first.sample?.of, first.urls.listed);
    assert.match(first.sample?.method ?? '', /fingerprint/);
    assert.deepEqual(second.checks, first.checks, 'the same sample, the same findings');
    assert.equal(readRows(rowsFile).length, 10);
  });

  it('exit codes: --fail-on and the --max-errors budget; a sitemap not read fails whatever they say', async () => {
    const { errors, warnings } = main.report.summary;
    // The site's robots.txt names a sitemap that answers 404: the audit could not read the whole
    // site, so no budget and no --fail-on lets it pass (as tree, parse and validate).
    assert.ok(main.report.sitemaps.failed > 0);
    assert.equal((await again('-q', '--max-errors', String(errors))).code, 1);
    assert.equal((await again('-q', '--max-errors', String(errors - 1))).code, 1);
    assert.equal((await again('-q', '--fail-on', 'warning', '--max-errors', String(errors + warnings))).code, 1);
    const over = await again('-q', '--fail-on', 'warning', '--max-errors', String(errors + warnings - 1));
    assert.equal(over.code, 1);
    assert.equal((await again('-q', '--fail-on', 'never')).code, 1);
    assert.equal((await again('--fail-on', 'info')).code, 2);
    assert.equal((await runCli(['audit'])).code, 2);
    assert.equal((await runCli(['audit', 'example.com', 'other.example'])).code, 2);
  });

  it('a resumed audit that was whole makes its report again without a request', async () => {
    const before = fixture.site.requests.length;
    const result = await again('--json');
    assert.deepEqual(JSON.parse(result.stdout), main.report);
    assert.equal(fixture.site.requests.length, before);
  });
});

function rank(severity: string): number {
  return ['error', 'warning', 'info'].indexOf(severity);
}
