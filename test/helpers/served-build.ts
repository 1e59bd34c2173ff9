/**
 * A build folder written from a map of pages and served by a plain static server on 127.0.0.1,
 * then read both ways a user would: `generate` on the folder and `crawl` of the served site. The
 * tests that hold the two to the same answer share this set-up.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCli, type CliResult } from './cli.js';
import { serveSite, type RunningSite } from './serve-site.js';
import { staticFolder } from './static-folder.js';

export interface ServedBuild {
  site: RunningSite;
  /** The built folder. */
  build: string;
  /** Runs `generate` on the folder, then `crawl` from `crawlStart`; returns the sitemap each wrote. */
  generateAndCrawl(options: { generateArgs?: string[]; crawlStart: string }): Promise<{
    generated: string;
    crawled: string;
    /** What each command printed on stderr. */
    notes: { generate: string; crawl: string };
  }>;
  /**
   * Runs `crawl` from `startUrl` (this site's or another's) with `args`, its sitemaps written to a
   * folder named `name` beside the build and its state beside that: where the sitemap is, and the run.
   */
  crawl(name: string, startUrl: string, args?: string[]): Promise<{ run: CliResult; sitemap: string }>;
  close(): Promise<void>;
}

/** Writes `pages` (path → HTML) into a new temporary folder and serves it. */
export async function serveBuild(pages: Record<string, string>): Promise<ServedBuild> {
  const dir = await mkdtemp(join(tmpdir(), 'sitemapkit-served-build-'));
  const build = join(dir, 'build');
  for (const [path, body] of Object.entries(pages)) {
    await mkdir(dirname(join(build, path)), { recursive: true });
    await writeFile(join(build, path), body);
  }
  const site = await serveSite(staticFolder(build));
  const crawl = async (name: string, startUrl: string, args: string[] = []) => {
    const run = await runCli([
      'crawl',
      startUrl,
      '--out',
      join(dir, name),
      '--state',
      join(dir, `${name}-state`),
      ...args,
    ]);
    return { run, sitemap: join(dir, name, 'sitemap.xml') };
  };
  return {
    site,
    build,
    crawl,
    async generateAndCrawl({ generateArgs = [], crawlStart }) {
      const generated = await runCli([
        'generate',
        build,
        ...generateArgs,
        '--base-url',
        `${site.origin}/`,
        '--out',
        join(dir, 'generated'),
      ]);
      assert.equal(generated.code, 0, generated.stderr);
      const crawled = await crawl('crawled', crawlStart);
      assert.equal(crawled.run.code, 0, crawled.run.stderr);
      return {
        generated: await readFile(join(dir, 'generated', 'sitemap.xml'), 'utf8'),
        crawled: await readFile(crawled.sitemap, 'utf8'),
        notes: { generate: generated.stderr, crawl: crawled.run.stderr },
      };
    },
    async close() {
      await site.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
