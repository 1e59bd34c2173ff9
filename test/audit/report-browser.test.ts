/**
 * The HTML report of an audit of the fixture site, opened in a real headless Chromium (Debian's
 * `chromium`, found on the PATH; driven by playwright-core): the counts it shows equal the JSON
 * report's, with JavaScript and without; it makes no request and logs no error; a URL that would
 * end a <script> element shows as text; the filter boxes filter; it prints. A screenshot is kept
 * in test/artifacts/ (not committed). Without Chromium the test says so and is skipped.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { AuditReport } from '../../src/audit/report.js';
import { formatNumber } from '../../src/report/format.js';
import { ARTIFACTS_DIR, CHROMIUM_SKIP, launchChromium } from '../helpers/chromium.js';
import { runCli } from '../helpers/cli.js';
import { CERT_FILE, NOW, SCRIPT_BREAKER, serveAuditSite, type AuditFixture } from './fixtures/audit-site.js';

const ARTIFACTS = ARTIFACTS_DIR;
const SCREENSHOT = join(ARTIFACTS, 'audit-report.png');
const SCREENSHOT_FULL = join(ARTIFACTS, 'audit-report-full.png');

const SKIP = CHROMIUM_SKIP;
if (SKIP) console.log(`# ${SKIP}`);

describe('the audit HTML report in headless Chromium', { skip: SKIP }, () => {
  let fixture: AuditFixture;
  let dir: string;
  let browser: Browser;
  let report: AuditReport;
  let htmlFile: string;
  before(async () => {
    fixture = await serveAuditSite();
    dir = mkdtempSync(join(tmpdir(), 'sitemapkit-audit-html-'));
    htmlFile = join(dir, 'audit.html');
    const result = await runCli(
      ['audit', fixture.site.origin, '--now', NOW, '--state', join(dir, 'state'), '--retries', '0'].concat([
        '--max-page-bytes',
        '65536',
        '--html',
        htmlFile,
        '--json',
      ]),
      { env: { NODE_EXTRA_CA_CERTS: CERT_FILE } },
    );
    report = JSON.parse(result.stdout) as AuditReport;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await fixture?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Opens the report; every request, console error, page error and dialog is recorded. */
  async function open(javaScriptEnabled: boolean) {
    const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const seen = { requests: [] as string[], errors: [] as string[], dialogs: [] as string[] };
    page.on('request', (request) => seen.requests.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error') seen.errors.push(message.text());
    });
    page.on('pageerror', (error) => seen.errors.push(String(error)));
    page.on('dialog', (dialog) => {
      seen.dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(pathToFileURL(htmlFile).href, { waitUntil: 'load' });
    return { page, seen, close: () => context.close() };
  }

  const text = async (page: Page, selector: string) => (await page.locator(selector).textContent())?.trim();

  /** The counts the page shows equal the JSON's. */
  async function assertCounts(page: Page): Promise<void> {
    const { summary, urls, sitemaps } = report;
    const cards: [string, number][] = [
      ['errors', summary.errors],
      ['warnings', summary.warnings],
      ['infos', summary.infos],
      ['sitemaps', sitemaps.count],
      ['listed', urls.listed],
      ['checked', urls.checked],
      ['indexable', urls.indexable],
    ];
    for (const [key, value] of cards)
      assert.equal(await text(page, `[data-count="${key}"]`), formatNumber(value), `${key} shown`);
    for (const check of report.checks) {
      assert.equal(
        await text(page, `[data-finding-count="${check.finding}"]`),
        formatNumber(check.count),
        check.finding,
      );
      assert.equal(
        await page.locator(`#finding-${check.finding} tbody tr`).count(),
        check.examples.length,
        `${check.finding}: a row per example`,
      );
    }
    for (const check of report.siteChecks)
      assert.equal(await text(page, `[data-site-count="${check.code}"]`), formatNumber(check.count), check.code);
    assert.equal(await page.locator('svg.chart').count(), 3, 'three charts, drawn inline');
  }

  it('shows the counts of the JSON report, makes no request and logs no error; keeps a screenshot', async (t) => {
    assert.ok(report.checks.length > 10 && report.summary.errors > 0, 'the fixture has findings to show');
    const { page, seen, close } = await open(true);
    try {
      await assertCounts(page);
      const embedded = JSON.parse((await page.locator('#audit-data').textContent()) ?? '') as AuditReport;
      assert.deepEqual(embedded, report, 'the embedded data is the JSON report');
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: SCREENSHOT });
      await page.screenshot({ path: SCREENSHOT_FULL, fullPage: true });
      t.diagnostic(`screenshots: ${SCREENSHOT} (the first screen), ${SCREENSHOT_FULL} (the whole page)`);
      console.log(`# screenshots of the audit report: ${SCREENSHOT}, ${SCREENSHOT_FULL}`);
      assert.ok(readFileSync(SCREENSHOT).subarray(1, 4).toString() === 'PNG');
    } finally {
      await close();
    }
    assert.deepEqual(seen.requests, [pathToFileURL(htmlFile).href], 'no request beyond the file itself');
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.dialogs, [], 'no script ran from the data');
  });

  it('reads without JavaScript: the summary, the charts and the tables are all there', async () => {
    const { page, seen, close } = await open(false);
    try {
      await assertCounts(page);
    } finally {
      await close();
    }
    assert.deepEqual(seen.requests, [pathToFileURL(htmlFile).href]);
  });

  it('shows a URL that would end a <script> element as text, and the filter box filters', async () => {
    const { page, seen, close } = await open(true);
    try {
      const section = page.locator('#finding-http-4xx');
      const rows = section.locator('tbody tr:not([hidden])');
      assert.equal(await rows.count(), 2);
      assert.ok(
        (await section.locator('tbody').textContent())?.includes(`${fixture.site.origin}${SCRIPT_BREAKER}`),
        'the URL as it is listed, as text',
      );
      const box = section.locator('.filter-box');
      await box.fill('alert(1)');
      assert.equal(await rows.count(), 1);
      assert.match((await rows.first().textContent()) ?? '', /<\/script><script>alert\(1\)<\/script>/);
      assert.equal(await text(page, '#finding-http-4xx .visible'), '1');
      await box.fill('gone');
      assert.equal(await rows.count(), 1);
      assert.match((await rows.first().textContent()) ?? '', /\/gone/);
      await box.fill('sitemap-pages.xml:6');
      assert.equal(await rows.count(), 1, 'the sitemap and line filter too');
      await box.fill('no such thing');
      assert.equal(await rows.count(), 0);
      assert.equal(await text(page, '#finding-http-4xx .visible'), '0');
      await box.fill('');
      assert.equal(await rows.count(), 2);
      const site = page.locator('#site-URL-003');
      await site.locator('.filter-box').fill('sitemap-pages');
      assert.equal(await site.locator('tbody tr:not([hidden])').count(), 1, 'the sitemaps problems filter too');
    } finally {
      await close();
    }
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.dialogs, []);
  });

  it('prints: the filter boxes are left out, and it makes a PDF', async () => {
    const { page, close } = await open(true);
    try {
      await page.emulateMedia({ media: 'print' });
      assert.equal(await page.locator('.filter').first().isVisible(), false);
      assert.equal(await page.locator('#summary').isVisible(), true);
      const pdf = await page.pdf({ format: 'A4' });
      assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    } finally {
      await close();
    }
  });
});
