/**
 * The README's first hour: `npm start` on the bundled example writes its sitemaps without a
 * warning, `npx sitemapkit` runs the clone's command, and the clone installed into another project
 * (`npm install /path/to/clone`, which links it) is imported as `sitemapkit`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { REPO_DIR } from '../helpers/paths.js';

const ROOT = REPO_DIR;
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  scripts: Record<string, string>;
};

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-quickstart-'));
after(() => rm(scratch, { recursive: true, force: true }));

test('npm start: the bundled example is written with no problem and no warning', async () => {
  const [node, cli, ...args] = PACKAGE.scripts.start!.split(' ');
  assert.deepEqual([node, cli], ['node', 'dist/cli/sitemapkit.js'], 'the start script runs the CLI');
  const cwd = await mkdtemp(join(scratch, 'start-'));
  // The files of examples/ that the script reads (not the framework projects beside them, which
  // the integration tests install and build: hundreds of MB).
  const inputs = args.filter((arg) => arg.startsWith('examples/'));
  assert.ok(inputs.length > 0, 'the start script reads a bundled example');
  for (const input of inputs) await cp(join(ROOT, input), join(cwd, input));
  const result = await runCli(args, { cwd });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, '', 'no problem, no warning (NEWS-003 included)');
  assert.match(result.stdout, /^Wrote 29 URLs in 1 file to /);
  assert.match(await readFile(join(cwd, 'out', 'sitemap.xml'), 'utf8'), /<news:title>New store opens in Innsbruck</);
});

test('npx sitemapkit runs the clone’s own command, offline', () => {
  // --ignore-scripts: npx installs the clone into its cache the first time, and would run the
  // clone's `prepare` (a whole build, rewriting dist/ under the tests running beside this one).
  const result = spawnSync('npx', ['--offline', '--no-install', '--ignore-scripts', 'sitemapkit', '--version'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, `${PACKAGE.version}\n`);
});

test('another project imports the clone as "sitemapkit" once it is installed (linked) into it', async () => {
  const project = await mkdtemp(join(scratch, 'project-'));
  await mkdir(join(project, 'node_modules'));
  // What `npm install /path/to/clone` makes: a link to the folder.
  await symlink(ROOT, join(project, 'node_modules', 'sitemapkit'), 'dir');
  await writeFile(join(project, 'package.json'), '{ "type": "module" }\n');
  await writeFile(
    join(project, 'main.js'),
    `import { writeSitemaps } from 'sitemapkit';
import { parseSitemap } from 'sitemapkit/parse';
const summary = await writeSitemaps([{ loc: '/' }], { outDir: 'public', baseUrl: 'https://www.example.com/' });
let urls = 0;
for await (const entry of parseSitemap({ path: 'public/sitemap.xml' })) urls += entry.kind === 'url' ? 1 : 0;
console.log(summary.robotsTxt[0], urls);
`,
  );
  const result = spawnSync(process.execPath, ['main.js'], { cwd: project, encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, 'Sitemap: https://www.example.com/sitemap.xml 1\n');
});
