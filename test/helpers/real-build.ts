/**
 * Real framework builds for the integration tests. Each framework has a pinned project in
 * `examples/<framework>/` (its package.json and package-lock.json, with sitemapkit itself as
 * `file:../..`, so the integration is used exactly as a user uses it). installExample runs `npm ci`
 * there once per lockfile (a marker in its node_modules holds the lockfile's digest); copyExample
 * makes a throw-away copy of the project's sources below the example folder (so that Node finds
 * the example's node_modules by walking up, as in a monorepo), where a test edits pages and runs
 * the framework's build. serveDirectory serves what a build wrote as a plain static host does.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { UrlEntry } from '../../src/core/index.js';
import { parseSitemap } from '../../src/parse/index.js';
import { REPO_DIR } from './paths.js';
import { serveSite, type RunningSite } from './serve-site.js';
import { staticFolder } from './static-folder.js';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export const EXAMPLES_DIR = join(REPO_DIR, 'examples/');
/** Where copies are made inside an example folder (gitignored). */
const RUNS = '.runs';
/** What a copy of an example leaves out: installed packages, earlier copies, build output and caches. */
const NOT_COPIED = new Set(['node_modules', RUNS, 'dist', 'build', 'out', '.next', '.docusaurus', '_site', '.astro']);
const MARKER = '.sitemapkit-lock-digest';

/**
 * Installs examples/<name> with `npm ci` (without install scripts: sitemapkit itself is linked,
 * and built already, and the frameworks' binaries come as optional packages) unless its node_modules was installed from this very
 * lockfile already. Slow the first time (the framework comes from npm), instant afterwards.
 */
export async function installExample(name: string): Promise<string> {
  const dir = join(EXAMPLES_DIR, name);
  const digest = createHash('sha256')
    .update(readFileSync(join(dir, 'package-lock.json')))
    .digest('hex');
  const marker = join(dir, 'node_modules', MARKER);
  if (existsSync(marker) && readFileSync(marker, 'utf8') === digest) return dir;
  await run(npm, ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ASTRO_TELEMETRY_DISABLED: '1' },
  });
  await writeFile(marker, digest);
  return dir;
}

/** A throw-away copy of an example project, to edit and build. */
export interface ExampleCopy {
  dir: string;
  /** Writes a file of the project (path relative to it). */
  write(path: string, content: string): Promise<void>;
  read(path: string): Promise<string>;
  /** Runs an npm script of the project (default `build`) with `args`; rejects with its output when it fails. */
  build(script?: string, env?: NodeJS.ProcessEnv, args?: string[]): Promise<{ stdout: string; stderr: string }>;
  remove(): Promise<void>;
}

/** Installs the example (when needed) and copies its sources to a fresh folder inside it. */
export async function copyExample(name: string): Promise<ExampleCopy> {
  const source = await installExample(name);
  await mkdir(join(source, RUNS), { recursive: true });
  const dir = await mkdtemp(join(source, RUNS, 'run-'));
  // Entry by entry: a folder cannot be copied into itself whole.
  for (const entry of await readdir(source)) {
    if (!NOT_COPIED.has(entry)) await cp(join(source, entry), join(dir, entry), { recursive: true });
  }
  return {
    dir,
    write: async (path, content) => {
      await mkdir(join(dir, path, '..'), { recursive: true });
      await writeFile(join(dir, path), content);
    },
    read: (path) => readFile(join(dir, path), 'utf8'),
    build: async (script = 'build', env = {}, args = []) => {
      try {
        return await run(npm, ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])], {
          cwd: dir,
          maxBuffer: 64 * 1024 * 1024,
          env: {
            ...process.env,
            NEXT_TELEMETRY_DISABLED: '1',
            ASTRO_TELEMETRY_DISABLED: '1',
            DOCUSAURUS_IGNORE_SSG_WARNINGS: 'true',
            NO_UPDATE_NOTIFIER: '1',
            CI: '1',
            ...env,
          },
        });
      } catch (error) {
        const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
        throw new Error(`the ${name} build failed:\n${stdout}\n${stderr}`, { cause: error });
      }
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * Serves a build folder on 127.0.0.1 as a plain static host does (./static-folder.ts): with each
 * file's time as Last-Modified, `/dir/` answering dir/index.html, `/dir` redirected to `/dir/`,
 * `/page` answering page.html with `cleanUrls`, and a missing path 404 with the folder's 404.html.
 */
export function serveDirectory(root: string, { cleanUrls = false } = {}): Promise<RunningSite> {
  return serveSite(staticFolder(root, { cleanUrls }));
}

/**
 * The URL entries of the sitemaps written to `dir` (its sitemap.xml, and the shards it lists when
 * it is an index), by loc.
 */
export async function writtenSitemaps(dir: string, name = 'sitemap.xml'): Promise<Map<string, UrlEntry>> {
  const entries = new Map<string, UrlEntry>();
  for await (const entry of parseSitemap({ path: join(dir, name) }, { strict: true })) {
    if (entry.kind === 'url') entries.set(entry.loc, entry);
    else
      for (const [loc, child] of await writtenSitemaps(dir, new URL(entry.loc).pathname.split('/').pop()))
        entries.set(loc, child);
  }
  return entries;
}

/** Each entry's lastmod by loc (undefined where it has none): what a second build may change. */
export function lastmods(entries: Map<string, UrlEntry>): Record<string, string | undefined> {
  return Object.fromEntries([...entries].map(([loc, entry]) => [loc, entry.lastmod]));
}

/** The part of `audit --json` the real-site tests hold exactly. */
export interface AuditJson {
  urls: { listed: number; checked: number; indexable: number };
  summary: { errors: number; warnings: number };
  checks: { code: string }[];
  siteChecks: { code: string }[];
  stampedLastModified?: { origin: string; pages: number; staleLeftOut: number }[];
}
