/**
 * The README's code runs: every TypeScript example that imports sitemapkit is cut out of the
 * README, its imports pointed at the build (the package's own exports map), compiled, and run as
 * a user would run it, in a folder of its own with the files it names. A site it reaches over
 * HTTP (example.com) is a local fixture site. Each must finish, print what its comments say, and
 * draw no problem. A new example without a case here fails the first test: add its case.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { writeSitemaps } from '../../src/generate/index.js';
import { startSite, urlset, XML, type Site } from '../helpers/site-server.js';
import { REPO_DIR } from '../helpers/paths.js';

const ROOT = REPO_DIR;
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, { default: string }>;
};

interface Example {
  code: string;
  /** Line of the README where the block starts. */
  line: number;
}

/**
 * The README's TypeScript blocks that use sitemapkit (the files of examples/ are run by
 * test/runtimes, the framework projects of examples/ built by test/integrations).
 */
const EXAMPLES: Example[] = [...readFileSync(join(ROOT, 'README.md'), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```/gm)]
  .map((match) => ({
    code: match[1]!,
    line: readFileSync(join(ROOT, 'README.md'), 'utf8').slice(0, match.index).split('\n').length,
  }))
  .filter((example) => /from 'sitemapkit(?:\/[a-z]+)?'/.test(example.code))
  // A file of a framework's project (`// vite.config.ts`, `// app/…/route.ts`) is built for real by
  // test/integrations from examples/.
  .filter((example) => !/^\/\/ \S+\.[cm]?[jt]sx?\b/.test(example.code));

interface Case {
  /** Text that tells the example. */
  marker: string;
  /** Files and folders the example reads, made in its folder before it runs. */
  setup?: (dir: string) => Promise<void>;
  /** Code run before the example: what it takes as given (a response, pages). */
  prelude?: string;
  /** What it must print on stdout. */
  prints?: RegExp;
  /** The example reaches example.com: it is pointed at the fixture site. */
  network?: boolean;
}

const HTML = (title: string, lang = 'en') =>
  `<!doctype html><html lang="${lang}"><head><title>${title}</title></head><body><h1>${title}</h1></body></html>\n`;

async function builtSite(dir: string): Promise<void> {
  await mkdir(join(dir, 'dist', 'about'), { recursive: true });
  await writeFile(join(dir, 'dist', 'index.html'), HTML('Home'));
  await writeFile(join(dir, 'dist', 'about', 'index.html'), HTML('About'));
}

const ENTRIES = [
  { kind: 'url' as const, loc: 'https://www.example.com/', lastmod: '2024-05-01' },
  { kind: 'url' as const, loc: 'https://www.example.com/about', lastmod: '2024-05-02' },
];

const CASES: Case[] = [
  {
    marker: "import { writeSitemaps } from 'sitemapkit';",
    prints: /^1 \[ 'Sitemap: https:\/\/www\.example\.com\/sitemap\.xml' \]\n$/,
  },
  {
    marker: "generateFromDirectory('dist'",
    setup: async (dir) => {
      await builtSite(dir);
      const stub = '<!doctype html><html><head><meta http-equiv="refresh" content="0; url=/about/"></head></html>\n';
      await writeFile(join(dir, 'dist', 'old.html'), stub);
    },
    prints: /^redirect 1\n$/,
  },
  {
    marker: 'new GenerateLedger(',
    setup: builtSite,
    prints: /^\{ run: 1, firstRun: true, added: 2, changed: 0, removed: 0 \}\n$/,
  },
  {
    marker: 'createSitemapWriter(response',
    prelude: `import { createWriteStream } from 'node:fs';
const response = createWriteStream('page.xml');
const pages = [{ loc: '/' }, { loc: '/shop/tent', images: [{ loc: 'https://cdn.example.com/tent.jpg' }] }];`,
  },
  {
    marker: "parseSitemap('sitemap.xml.gz', { baseUrl",
    setup: async (dir) => {
      const entries = ENTRIES.map((entry) => ({ ...entry, loc: entry.loc.replace('www.', '') }));
      await writeSitemaps(entries, { outDir: join(dir, 'site'), baseUrl: 'https://example.com/', gzip: true });
      const { readdir, copyFile } = await import('node:fs/promises');
      const shard = (await readdir(join(dir, 'site'))).find((name) => name.endsWith('.xml.gz'))!;
      await copyFile(join(dir, 'site', shard), join(dir, 'sitemap.xml.gz'));
    },
    prints: /https:\/\/example\.com\/ 2024-05-01\n[\s\S]*urlset \{[\s\S]*\} \[\]\n$/,
  },
  {
    marker: 'entryBatches(parseSitemap(',
    setup: async (dir) => {
      await writeSitemaps(ENTRIES, { outDir: join(dir, 'site'), baseUrl: 'https://www.example.com/', gzip: true });
      const { readdir, copyFile } = await import('node:fs/promises');
      const shard = (await readdir(join(dir, 'site'))).find((name) => name.endsWith('.xml.gz'))!;
      await copyFile(join(dir, 'site', shard), join(dir, 'sitemap.xml.gz'));
    },
    prints: /^https:\/\/www\.example\.com\/\nhttps:\/\/www\.example\.com\/about\n$/,
  },
  {
    marker: "validateSources(['dist/sitemap_index.xml']",
    setup: async (dir) => {
      await writeSitemaps(ENTRIES, {
        outDir: join(dir, 'dist'),
        baseUrl: 'https://www.example.com/',
        gzip: true,
        fileBaseName: 'sitemap_index',
      });
    },
    prints: /^$/,
  },
  {
    marker: "walkSitemapTree('example.com'",
    network: true,
    prints: /\n2 URLs in 1 sitemaps, 0 errors\n$/,
  },
  {
    marker: 'crawlSite({',
    network: true,
    prints: /^Sitemap: http:\/\/127\.0\.0\.1:\d+\/sitemap\.xml\n$/,
  },
  { marker: 'runAudit(', network: true, prints: /^\{[\s\S]*\}/ },
  { marker: "from 'sitemapkit/parse';" },
];

let site: Site;
before(async () => {
  site = await startSite((origin) => ({
    '/robots.txt': { body: `User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n` },
    '/sitemap.xml': { headers: XML, body: urlset([`${origin}/`, { loc: `${origin}/about`, lastmod: '2024-05-02' }]) },
    '/': { headers: { 'content-type': 'text/html' }, body: HTML('Home') },
    '/about': { headers: { 'content-type': 'text/html' }, body: HTML('About') },
  }));
});
after(() => site.close());

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-readme-'));
after(() => rm(scratch, { recursive: true, force: true }));

/** The example as a module: sitemapkit's imports pointed at the build, types stripped. */
function compiled(example: Example, theCase: Case): string {
  let code = example.code.replace(/from 'sitemapkit(\/[a-z]+)?'/g, (_, sub: string | undefined) => {
    const target = PACKAGE.exports[`.${sub ?? ''}`];
    assert.ok(target, `sitemapkit${sub ?? ''} is in the package's exports`);
    return `from '${pathToFileURL(join(ROOT, target.default)).href}'`;
  });
  if (theCase.network)
    code = code.replaceAll("'example.com'", `'${site.origin}'`).replaceAll('https://www.example.com', site.origin);
  const source = `${theCase.prelude ?? ''}\n${code}\nexport {};\n`;
  return ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
  }).outputText;
}

function run(file: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test('every library example of the README has a case here', () => {
  assert.ok(EXAMPLES.length >= 8, `found ${EXAMPLES.length} examples`);
  for (const example of EXAMPLES)
    assert.ok(
      CASES.some((c) => example.code.includes(c.marker)),
      `README.md:${example.line}: an example without a case in test/docs/readme.test.ts`,
    );
});

for (const theCase of CASES) {
  test(`README example "${theCase.marker}" runs, prints what it says and draws no problem`, async () => {
    const example = EXAMPLES.find((e) => e.code.includes(theCase.marker));
    assert.ok(example, `the README still has the example "${theCase.marker}"`);
    const dir = await mkdtemp(join(scratch, 'example-'));
    await theCase.setup?.(dir);
    const file = join(dir, 'example.mjs');
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, compiled(example, theCase));
    const result = await run(file, dir);
    assert.equal(result.code, 0, `README.md:${example.line}\n${result.stderr}`);
    assert.equal(result.stderr, '', `README.md:${example.line}: nothing on stderr (no problem, no warning)`);
    if (theCase.prints) assert.match(result.stdout, theCase.prints, `README.md:${example.line}`);
  });
}
