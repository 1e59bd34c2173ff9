/**
 * sitemapkit/docusaurus on a real Docusaurus build (examples/docusaurus, Docusaurus from npm)
 * with @docusaurus/plugin-client-redirects, whose redirects are meta-refresh stubs; the pages
 * dated by their last commit, as Docusaurus knows it (showLastUpdateTime). Then, as issue 23 asks
 * of real sites, `generate` on the output folder, `crawl` over a plain static server on
 * 127.0.0.1, and `audit` of the site with the sitemap the integration wrote.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { UrlEntry } from '../../src/core/index.js';
import { runCli } from '../helpers/cli.js';
import { GitRepository } from '../helpers/git-repo.js';
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
let repository: GitRepository;
let site: RunningSite;
let scratch: string;
let build: string;
let built: { stdout: string; entries: Map<string, UrlEntry> };

before(async () => {
  project = await copyExample('docusaurus');
  scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-docusaurus-'));
  build = join(project.dir, 'build');
  // The sources in a repository of their own, each page committed at a known time.
  repository = await GitRepository.init(project.dir);
  repository.commit(['docs/intro.md'], '2024-01-10T09:00:00Z');
  repository.commit(['docs/guide.md'], '2024-02-20T15:30:00Z');
  repository.commit(['.'], '2024-03-01T12:00:00Z');
  site = await serveDirectory(build);
  // Not minified: the test reads pages, not scripts, and minifying is most of the build's time.
  const { stdout } = await project.build('build', { SITE_URL: site.origin }, ['--no-minify']);
  built = { stdout, entries: await writtenSitemaps(build) };
});
after(async () => {
  await site?.close();
  await project?.remove();
  await rm(scratch, { recursive: true, force: true });
});

const pages = (origin: string) => [`${origin}/`, `${origin}/docs/guide/`, `${origin}/docs/intro/`];

/**
 * The instant each page is dated at: the docs by the dates Docusaurus read from git, which its
 * pages show as microdata ("Last updated on"), whoever reads them; the home page by none, as the
 * build's time is not when it changed.
 */
function pageDates(entries: Map<string, UrlEntry>): Record<string, number | undefined> {
  return Object.fromEntries(
    [...entries].map(([loc, { lastmod }]) => [loc, lastmod === undefined ? undefined : Date.parse(lastmod)]),
  );
}

test('docusaurus: the pages with trailing slashes, without the redirect stub, the noindex page and the 404', async () => {
  assert.deepEqual([...built.entries.keys()].sort(), pages(site.origin));
  assert.match(built.stdout, /^Wrote 3 URLs in 1 file to /m);
  // The client-redirects plugin wrote its stub, which is not a page.
  assert.match(await readFile(join(build, 'old-intro/index.html'), 'utf8'), /<meta http-equiv="refresh"/);
  assert.equal(built.entries.has(`${site.origin}/old-intro/`), false);
});

test('docusaurus: docs dated by their last commit, as Docusaurus read it from git', () => {
  const o = site.origin;
  assert.deepEqual(lastmods(built.entries), {
    [`${o}/docs/intro/`]: '2024-01-10T09:00:00Z',
    [`${o}/docs/guide/`]: '2024-02-20T15:30:00Z',
    [`${o}/`]: undefined,
  });
});

test('docusaurus: generate on the output folder lists the same pages with the same dates', async () => {
  const out = join(scratch, 'generate');
  const run = await runCli(['generate', build, '--base-url', `${site.origin}/`, '--out', out, '--json']);
  assert.equal(run.code, 0, run.stderr);
  const generated = await writtenSitemaps(out);
  assert.deepEqual([...generated.keys()].sort(), pages(site.origin));
  assert.deepEqual(pageDates(generated), pageDates(built.entries));
});

test('docusaurus: crawl over a static server finds the same pages with the same dates', async () => {
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
  const crawled = await writtenSitemaps(out);
  assert.deepEqual([...crawled.keys()].sort(), pages(site.origin));
  assert.deepEqual(pageDates(crawled), pageDates(built.entries));
});

test('docusaurus: audit of the site and its sitemap finds nothing wrong', async () => {
  const run = await runCli(['audit', `${site.origin}/`, '--state', join(scratch, 'audit-state'), '--json']);
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout) as AuditJson;
  assert.deepEqual(report.urls, { listed: 3, checked: 3, indexable: 3 });
  assert.deepEqual(report.checks, []);
  assert.equal(report.summary.errors, 0);
  assert.deepEqual(
    report.siteChecks.map((check) => check.code),
    ['ROBOTS-006'],
  );
  // The static server sends the build's time as every page's Last-Modified: the audit says so,
  // and judges the docs by their own dates.
  assert.deepEqual(
    report.stampedLastModified?.map(({ origin, pages, staleLeftOut }) => [origin, pages, staleLeftOut]),
    [[site.origin, 3, 0]],
  );
});
