/**
 * sitemapkit/vite on a real VitePress build (examples/vitepress, VitePress from npm) with two
 * languages and clean URLs; then, as issue 23 asks of real sites, `generate` on the output
 * folder, `crawl` over a plain static server on 127.0.0.1, and `audit` of the site with the
 * sitemap the integration wrote.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { UrlEntry } from '../../src/core/index.js';
import { runCli } from '../helpers/cli.js';
import {
  copyExample,
  type AuditJson,
  lastmods,
  serveDirectory,
  writtenSitemaps,
  type ExampleCopy,
} from '../helpers/real-build.js';
import type { RunningSite } from '../helpers/serve-site.js';

let project: ExampleCopy;
let site: RunningSite;
let scratch: string;
let dist: string;
let built: { stdout: string; entries: Map<string, UrlEntry> };

before(async () => {
  project = await copyExample('vitepress');
  scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-vitepress-'));
  dist = join(project.dir, 'site/.vitepress/dist');
  // The server comes first: the site is built for the address it is served at.
  site = await serveDirectory(dist, { cleanUrls: true });
  const { stdout } = await project.build('build', { SITE_URL: site.origin });
  built = { stdout, entries: await writtenSitemaps(dist) };
});
after(async () => {
  await site?.close();
  await project?.remove();
  await rm(scratch, { recursive: true, force: true });
});

const pages = (origin: string) => [
  `${origin}/`,
  `${origin}/changelog`,
  `${origin}/de/`,
  `${origin}/de/guide`,
  `${origin}/guide`,
];

test('vitepress: clean URLs, no 404, noindex or redirect page, and the translations both ways', () => {
  const o = site.origin;
  assert.deepEqual([...built.entries.keys()].sort(), pages(o));
  const alternates = (loc: string) =>
    (built.entries.get(loc)?.alternates ?? []).map(({ hreflang, href }) => `${hreflang} ${href}`).sort();
  assert.deepEqual(alternates(`${o}/guide`), [`de ${o}/de/guide`, `en ${o}/guide`, `x-default ${o}/guide`]);
  assert.deepEqual(alternates(`${o}/de/guide`), [`de ${o}/de/guide`, `en ${o}/guide`, `x-default ${o}/guide`]);
  assert.deepEqual(alternates(`${o}/de/`), [`de ${o}/de/`, `en ${o}/`, `x-default ${o}/`]);
  assert.deepEqual(alternates(`${o}/changelog`), []);
  assert.match(built.stdout, /^Wrote 5 URLs in 1 file to /m);
  assert.deepEqual(Object.values(lastmods(built.entries)).filter(Boolean), []);
});

test('vitepress: generate on the output folder lists the same pages, in the host form', async () => {
  const out = join(scratch, 'generate');
  const run = await runCli(['generate', dist, '--base-url', `${site.origin}/`, '--out', out, '--clean-urls', '--json']);
  assert.equal(run.code, 0, run.stderr);
  const entries = await writtenSitemaps(out);
  assert.deepEqual([...entries.keys()].sort(), pages(site.origin));
});

test('vitepress: crawl over a static server finds the same pages', async () => {
  const out = join(scratch, 'crawl');
  const run = await runCli([
    'crawl',
    `${site.origin}/`,
    '--out',
    out,
    '--state',
    join(scratch, 'crawl-state'),
    '--json',
  ]);
  assert.equal(run.code, 0, run.stderr);
  const entries = await writtenSitemaps(out);
  assert.deepEqual([...entries.keys()].sort(), pages(site.origin));
});

test('vitepress: audit of the site and its sitemap finds nothing wrong', async () => {
  const run = await runCli(['audit', `${site.origin}/`, '--state', join(scratch, 'audit-state'), '--json']);
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout) as AuditJson;
  assert.deepEqual(report.urls, { listed: 5, checked: 5, indexable: 5 });
  // Not one finding on a listed URL: no redirect, no noindex, hreflang as the pages say it.
  assert.deepEqual(report.checks, []);
  assert.equal(report.summary.errors, 0);
  // The one remark is the site's: the folder has no robots.txt naming the sitemap.
  assert.deepEqual(
    report.siteChecks.map((check) => check.code),
    ['ROBOTS-006'],
  );
});

test('vitepress: audit --crawl reaches every listed page by its links, and lists every page it reaches', async () => {
  const run = await runCli([
    'audit',
    `${site.origin}/`,
    '--crawl',
    '--state',
    join(scratch, 'audit-crawl-state'),
    '--json',
  ]);
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout) as AuditJson & { crawl: { site: string; fetched: number; finished: boolean } };
  // No orphan (a listed page no link reaches) and no not-listed (a reached page no sitemap lists).
  assert.deepEqual(report.checks, []);
  // One fetch more than the pages listed: VitePress's language menu on /changelog links its German
  // twin, /de/changelog, which the site does not have (a 404: a broken link, not an audit finding).
  assert.deepEqual(report.crawl, { site: site.origin, fetched: pages(site.origin).length + 1, finished: true });
});
