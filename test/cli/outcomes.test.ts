/**
 * One truth across commands: the same broken sites, served from 127.0.0.1, go through every
 * command that reads sitemaps (parse, validate, tree, audit, crawl --use-sitemaps, diff, submit),
 * and each is held to one table: whether the sitemaps were read whole, and the exit code with
 * `--fail-on never` (a document not read whole fails the run whatever --fail-on says; its
 * problems alone never do). A CI job must never pass on a site that could not be read.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { closedOrigin, sitemapIndex, startSite, urlset, XML, type Route, type Site } from '../helpers/site-server.js';

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-outcomes-'));
after(() => rm(scratch, { recursive: true, force: true }));

const HTML = { 'content-type': 'text/html; charset=utf-8' };
const page = (title: string): Route => ({
  headers: HTML,
  body: `<!doctype html><html><head><title>${title}</title></head><body><p>${title}</p></body></html>`,
});

/** A whole urlset of the site's two pages, long enough to be cut in the middle of its entries. */
function pages(origin: string): string {
  return urlset([`${origin}/`, `${origin}/a`, ...Array.from({ length: 40 }, (_, i) => `${origin}/a?page=${i}`)]);
}

/** The broken inputs: each a site whose robots.txt names /sitemap.xml (or .gz), and the document `parse` reads. */
interface Case {
  name: string;
  /** Whether every sitemap of the site can be read whole. */
  whole: boolean;
  routes: (origin: string) => Record<string, Route>;
  /** The sitemap's path (the root of the tree). */
  sitemap: string;
  /** The document parse reads (the broken one): default the sitemap. */
  document?: string;
  /** Serve nothing: the host does not answer. */
  unreachable?: true;
}

const siteRoutes = (origin: string, sitemap: string, more: Record<string, Route>): Record<string, Route> => ({
  '/robots.txt': {
    headers: { 'content-type': 'text/plain' },
    body: `User-agent: *\nAllow: /\nSitemap: ${origin}${sitemap}\n`,
  },
  '/': page('home'),
  '/a': page('a'),
  ...more,
});

const CASES: Case[] = [
  {
    name: 'cut plain',
    whole: false,
    sitemap: '/sitemap.xml',
    routes: (origin) => {
      const xml = pages(origin);
      return siteRoutes(origin, '/sitemap.xml', {
        '/sitemap.xml': { headers: XML, body: xml.slice(0, xml.length / 2) },
      });
    },
  },
  {
    name: 'cut gzip',
    whole: false,
    sitemap: '/sitemap.xml.gz',
    routes: (origin) => {
      const gz = gzipSync(pages(origin));
      return siteRoutes(origin, '/sitemap.xml.gz', {
        '/sitemap.xml.gz': { headers: { 'content-type': 'application/gzip' }, body: gz.subarray(0, gz.length / 2) },
      });
    },
  },
  {
    name: '404 child',
    whole: false,
    sitemap: '/sitemap.xml',
    document: '/missing.xml',
    routes: (origin) =>
      siteRoutes(origin, '/sitemap.xml', {
        '/sitemap.xml': { headers: XML, body: sitemapIndex([`${origin}/pages.xml`, `${origin}/missing.xml`]) },
        '/pages.xml': { headers: XML, body: pages(origin) },
      }),
  },
  { name: 'unreachable host', whole: false, sitemap: '/sitemap.xml', unreachable: true, routes: () => ({}) },
  {
    name: 'unchanged with errors',
    whole: true,
    sitemap: '/sitemap.xml',
    routes: (origin) => {
      const body = urlset([`${origin}/`, { loc: `${origin}/a`, lastmod: 'yesterday' }]);
      return siteRoutes(origin, '/sitemap.xml', {
        '/sitemap.xml': (req, res) => {
          if (req.headers['if-none-match'] === '"v1"') res.writeHead(304, { etag: '"v1"' }).end();
          else res.writeHead(200, { ...XML, etag: '"v1"' }).end(body);
        },
      });
    },
  },
  {
    name: 'misspelt root end',
    whole: true,
    sitemap: '/sitemap.xml',
    routes: (origin) =>
      siteRoutes(origin, '/sitemap.xml', {
        '/sitemap.xml': { headers: XML, body: pages(origin).replace('</urlset>', '</urlsett>') },
      }),
  },
];

/** No retries and no waits: an unreadable site is unreadable at once, in every command alike. */
const NETWORK = ['--retries', '0', '--max-wait', '0', '--timeout', '10'];

interface Verdict {
  /** Exit code with --fail-on never (or the command's own policy when it has no --fail-on). */
  exit: number | null;
  /** What the command's JSON says about reading whole, when it says it. */
  whole?: boolean;
}

type Command = (origin: string, c: Case, dir: string) => Promise<Verdict>;

interface TreeJsonNode {
  read: string;
  children: TreeJsonNode[];
}
const allNodes = (nodes: TreeJsonNode[]): TreeJsonNode[] => nodes.flatMap((n) => [n, ...allNodes(n.children)]);

const COMMANDS: Record<string, Command> = {
  parse: async (origin, c) => {
    const run = await runCli(['parse', `${origin}${c.document ?? c.sitemap}`, '--fail-on', 'never', ...NETWORK]);
    return { exit: run.code };
  },
  validate: async (origin, c) => {
    const run = await runCli([
      'validate',
      `${origin}${c.sitemap}`,
      '--recursive',
      '--json',
      '--fail-on',
      'never',
      ...NETWORK,
    ]);
    const results = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { read: string });
    return { exit: run.code, whole: results.every((r) => r.read === 'whole') };
  },
  tree: async (origin, c, dir) => {
    const args = ['tree', origin, '--json', '--fail-on', 'never', '--state', join(dir, 'tree'), ...NETWORK];
    if (c.name === 'unchanged with errors') await runCli(args); // the second walk meets it unchanged
    const run = await runCli(args);
    const tree = JSON.parse(run.stdout) as { roots: TreeJsonNode[] };
    const nodes = allNodes(tree.roots);
    return {
      exit: run.code,
      whole: nodes.length > 0 && nodes.every((n) => n.read === 'whole' || n.read === 'unchanged'),
    };
  },
  audit: async (origin, _c, dir) => {
    const run = await runCli(['audit', origin, '--json', '--fail-on', 'never', ...NETWORK], { cwd: dir });
    const report = JSON.parse(run.stdout) as { sitemaps: { read: number; failed: number } };
    return { exit: run.code, whole: report.sitemaps.read > 0 && report.sitemaps.failed === 0 };
  },
  crawl: async (origin, _c, dir) => {
    const run = await runCli(
      [
        'crawl',
        `${origin}/`,
        '--use-sitemaps',
        '--out',
        join(dir, 'crawl-out'),
        '--state',
        join(dir, 'crawl'),
        ...NETWORK,
      ],
      { cwd: dir },
    );
    return { exit: run.code };
  },
  diff: async (origin, c) => {
    const url = `${origin}${c.sitemap}`;
    const run = await runCli(['diff', url, url, '--json', ...NETWORK]);
    const last = run.stdout.trim().split('\n').at(-1) ?? '{}';
    const summary = (JSON.parse(last) as { summary?: { old: { complete: boolean } } }).summary;
    return { exit: run.code, ...(summary ? { whole: summary.old.complete } : {}) };
  },
  submit: async (origin, c, dir) => {
    const run = await runCli(
      [
        'submit',
        `${origin}${c.sitemap}`,
        '--key',
        'a1b2c3d4e5f6a7b8',
        '--dry-run',
        '--state',
        join(dir, 'submit'),
        ...NETWORK,
      ],
      { cwd: dir },
    );
    return { exit: run.code };
  },
};

for (const c of CASES) {
  test(`${c.name}: every command agrees (read whole: ${c.whole}; exit ${c.whole ? 0 : 1} with --fail-on never)`, async () => {
    let site: Site | undefined;
    const origin = c.unreachable ? await closedOrigin() : (site = await startSite(c.routes)).origin;
    try {
      const table: Record<string, Verdict> = {};
      for (const [name, command] of Object.entries(COMMANDS)) {
        const dir = await mkdtemp(join(scratch, `${name}-`));
        table[name] = await command(origin, c, dir);
      }
      const expected = Object.fromEntries(
        Object.entries(table).map(([name, got]) => [
          name,
          { exit: c.whole ? 0 : 1, ...(got.whole === undefined ? {} : { whole: c.whole }) },
        ]),
      );
      assert.deepEqual(table, expected);
    } finally {
      await site?.close();
    }
  });
}
