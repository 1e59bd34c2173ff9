/**
 * The HTML sitemap in a real headless Chromium (test/helpers/chromium.ts) with axe-core injected:
 * no accessibility violation on any kind of document (a whole page, an index, a part, a language
 * version), in the light and the dark scheme; the skip link is the first thing the keyboard
 * reaches and moves focus to the list; the page makes no request and runs nothing. Screenshots
 * are kept in test/artifacts/ (not committed). Without Chromium the test says so and is skipped.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { UrlEntry } from '../../src/core/entry.js';
import type { HtmlSitemapItem } from '../../src/generate/html-sitemap.js';
import { writeHtmlSitemap } from '../../src/site/html-sitemap-files.js';
import { ARTIFACTS_DIR, CHROMIUM_SKIP, launchChromium } from '../helpers/chromium.js';

const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

if (CHROMIUM_SKIP) console.log(`# ${CHROMIUM_SKIP}`);

/** A small shop in English and German, as a build directory would give it: titles with the site's name. */
function shop(): HtmlSitemapItem[] {
  const pages: [string, string, string][] = [
    ['', 'Tent Shop', 'Zeltladen'],
    ['tents/', 'Tents', 'Zelte'],
    ['tents/ultralight-2p', 'Ultralight 2-person tent', 'Ultraleichtes Zwei-Personen-Zelt'],
    ['tents/family-6p', 'Family tent for six', 'Familienzelt für sechs'],
    ['tents/winter-4-season', 'Four-season winter tent', 'Vier-Jahreszeiten-Winterzelt'],
    ['tents/accessories/footprints', 'Footprints', 'Zeltunterlagen'],
    ['tents/accessories/pegs-and-poles', 'Pegs & poles', 'Heringe & Stangen'],
    ['guides/', 'Guides', 'Ratgeber'],
    ['guides/pitching/in-the-wind', 'Pitching in the wind', 'Aufbauen bei Wind'],
    ['guides/pitching/on-sand', 'Pitching on sand', 'Aufbauen auf Sand'],
    ['guides/care/washing', 'Washing a tent', 'Ein Zelt waschen'],
    ['guides/care/storing', 'Storing a tent over winter', 'Ein Zelt überwintern'],
    ['blog/2024/new-workshop', 'Our new repair workshop', 'Unsere neue Reparaturwerkstatt'],
    ['blog/2025/spring-sale', 'Spring sale', 'Frühlingsangebote'],
    ['about', 'About us', 'Über uns'],
    ['contact', 'Contact', 'Kontakt'],
  ];
  const items: HtmlSitemapItem[] = [];
  for (const [path, en, de] of pages) {
    const alternates = [
      { hreflang: 'en', href: `https://tents.example/en/${path}` },
      { hreflang: 'de', href: `https://tents.example/de/${path}` },
    ];
    items.push({ entry: { kind: 'url', loc: alternates[0]!.href, alternates }, title: `${en} | Tent Shop` });
    items.push({ entry: { kind: 'url', loc: alternates[1]!.href, alternates }, title: `${de} | Tent Shop` });
  }
  items.push({ entry: { kind: 'url', loc: 'https://tents.example/imprint' } satisfies UrlEntry, title: 'Imprint' });
  return items;
}

interface AxeResult {
  violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
  passes: unknown[];
}

describe('the HTML sitemap in headless Chromium, checked by axe-core', { skip: CHROMIUM_SKIP }, () => {
  let dir: string;
  let browser: Browser;
  const file = (name: string) => pathToFileURL(join(dir, name)).href;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sitemapkit-html-sitemap-browser-'));
    const whole = await writeHtmlSitemap(shop(), join(dir, 'sitemap.html'));
    assert.deepEqual(
      whole.files.map((path) => path.slice(dir.length + 1)),
      ['sitemap.html', 'sitemap.de.html'],
    );
    const split = await writeHtmlSitemap(shop(), join(dir, 'split.html'), { pageSize: 8 });
    assert.ok(split.files.length > 4, 'an index and parts in each language');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Opens a document; every request, console error and page error is recorded. */
  async function open(name: string, colorScheme: 'light' | 'dark' = 'light') {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme });
    const page = await context.newPage();
    const seen = { requests: [] as string[], errors: [] as string[] };
    page.on('request', (request) => seen.requests.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error') seen.errors.push(message.text());
    });
    page.on('pageerror', (error) => seen.errors.push(String(error)));
    await page.goto(file(name), { waitUntil: 'load' });
    return { page, seen, close: () => context.close() };
  }

  async function axeViolations(page: Page): Promise<string[]> {
    await page.addScriptTag({ path: AXE_SCRIPT });
    const result = await page.evaluate(() =>
      (globalThis as unknown as { axe: { run: () => Promise<AxeResult> } }).axe.run(),
    );
    assert.ok(result.passes.length > 10, 'axe ran its rules');
    return result.violations.map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
  }

  for (const [name, what] of [
    ['sitemap.html', 'a whole site map'],
    ['sitemap.de.html', 'its German version'],
    ['split.html', 'the index of a split one'],
    ['split-2.html', 'a part of it'],
    ['split.de-3.html', 'a part of its German version'],
  ] as const) {
    it(`${what} (${name}) has no accessibility violation, light or dark, and makes no request`, async () => {
      for (const scheme of ['light', 'dark'] as const) {
        const { page, seen, close } = await open(name, scheme);
        try {
          // The document's own state first: it runs no script of its own.
          assert.equal(await page.locator('script').count(), 0);
          assert.deepEqual(await axeViolations(page), [], `${name}, ${scheme}`);
        } finally {
          await close();
        }
        assert.deepEqual(seen.requests, [file(name)], 'no request beyond the file itself');
        assert.deepEqual(seen.errors, []);
      }
    });
  }

  it('the skip link comes first, shows when focused, and moves focus to the list', async () => {
    const { page, close } = await open('sitemap.html');
    try {
      const skip = page.locator('a.skip');
      const focused = page.locator(':focus');
      const hidden = await skip.boundingBox();
      assert.ok(hidden && hidden.y + hidden.height <= 0, 'off screen until focused');
      await page.keyboard.press('Tab');
      assert.equal(await focused.getAttribute('class'), 'skip');
      const shown = await skip.boundingBox();
      assert.ok(shown && shown.y >= 0, 'on screen when focused');
      await page.keyboard.press('Enter');
      assert.equal(await focused.getAttribute('id'), 'content');
      await page.keyboard.press('Tab');
      assert.equal(
        await focused.getAttribute('href'),
        'https://tents.example/en/',
        'the next Tab reaches the first link of the list',
      );
    } finally {
      await close();
    }
  });

  it('keeps screenshots: the whole page, light and dark, and a part', async (t) => {
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    const shots: [string, string, 'light' | 'dark'][] = [
      ['sitemap.html', 'html-sitemap.png', 'light'],
      ['sitemap.de.html', 'html-sitemap-de-dark.png', 'dark'],
      ['split-2.html', 'html-sitemap-part.png', 'light'],
    ];
    for (const [name, shot, scheme] of shots) {
      const { page, close } = await open(name, scheme);
      try {
        const path = join(ARTIFACTS_DIR, shot);
        await page.screenshot({ path, fullPage: true });
        t.diagnostic(`screenshot: ${path}`);
      } finally {
        await close();
      }
    }
  });
});
