/**
 * A robots.txt made to hang its reader (issue 25 §1): 400 KiB of `Disallow: /*a*a*…*b` rules
 * against pages whose paths are long runs of `a`. A backtracking matcher spent seconds on 34
 * characters and never ended on 60, deaf to Ctrl-C and SIGTERM; every command that checks URLs
 * against robots.txt must now stop when told, mid-way, and promptly.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { CLI_PATH } from '../helpers/cli.js';
import { html, serveSite, type RunningSite } from '../helpers/serve-site.js';
import { urlset } from '../helpers/site-server.js';

const HOSTILE_RULE = `Disallow: /*${'a*'.repeat(12)}b\n`;
const ROBOTS = `User-agent: *\n${HOSTILE_RULE.repeat(Math.floor(400_000 / HOSTILE_RULE.length))}Sitemap: /sitemap.xml\n`;
const PAGES = 400;
/** Page paths of 2,000 characters: a backtracking matcher never finishes one. */
const pagePath = (i: number) => `/p/${i}/${'a'.repeat(2_000)}`;
/** Seconds a run may take to stop once signalled, on a loaded machine (it used never to stop). */
const STOPS_WITHIN_MS = 15_000;

describe('commands that read a hostile robots.txt stop on SIGTERM mid-way', () => {
  let site: RunningSite;
  let dir: string;
  before(async () => {
    site = await serveSite(
      (origin, url) => {
        if (url.pathname === '/robots.txt') return { headers: { 'content-type': 'text/plain' }, body: ROBOTS };
        if (url.pathname === '/sitemap.xml') {
          const pages = Array.from({ length: PAGES }, (_, i) => `${origin}${pagePath(i)}`);
          return { headers: { 'content-type': 'application/xml' }, body: urlset(pages) };
        }
        const page = url.pathname === '/' ? 0 : Number(url.pathname.split('/')[2]);
        const links = Array.from({ length: 20 }, (_, k) => `<a href="${pagePath((page * 20 + k + 1) % PAGES)}">x</a>`);
        return { body: html('<title>page</title>', links.join('\n')) };
      },
      { delayMs: 20 },
    );
    dir = mkdtempSync(join(tmpdir(), 'sitemapkit-robots-hostile-'));
  });
  after(async () => {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const commands: [string, () => string[]][] = [
    ['crawl', () => ['crawl', `${site.origin}/`, '--out', join(dir, 'out'), '--state', join(dir, 'state')]],
    ['audit', () => ['audit', `${site.origin}/`]],
  ];
  for (const [name, args] of commands) {
    it(`${name}: heard and stopped, with long paths checked against every rule`, async () => {
      const child = spawn(process.execPath, [CLI_PATH, ...args()], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      const started = site.requests.length;
      // Mid-way: once long paths are being checked and fetched (or after 40 s, when none ever is:
      // a backtracking matcher never lets the first one through).
      const until = Date.now() + 40_000;
      while (site.requests.slice(started).filter((path) => path.startsWith('/p/')).length < 3 && Date.now() < until) {
        await sleep(10);
      }
      const fetched = site.requests.slice(started).filter((path) => path.startsWith('/p/')).length;
      const signalled = Date.now();
      child.kill('SIGTERM');
      const stopped = await Promise.race([exited, sleep(STOPS_WITHIN_MS).then(() => 'still running' as const)]);
      if (stopped === 'still running') child.kill('SIGKILL');
      assert.notEqual(stopped, 'still running', `${name} did not stop within ${STOPS_WITHIN_MS} ms of SIGTERM`);
      assert.ok(fetched >= 3, `${name} fetched ${fetched} long-path pages in 40 s`);
      assert.equal(stopped, 1, stderr);
      assert.match(`${stdout}${stderr}`, /interrupted|stopped before the end/);
      assert.ok(Date.now() - signalled < STOPS_WITHIN_MS);
    });
  }
});
