/**
 * A site's build directory, written as a static-site generator writes it: each build rewrites
 * every page (so every file gets the build's modification time) with the build's noise — hashed
 * asset names, a generator version, a build timestamp, scripts — around the pages' content, and
 * removes the pages that are gone.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Page path (`blog/post.html`) → what the page says (HTML of its <main>). */
export type Pages = Record<string, string>;

/** One build's page: the same content always, wrapped in what differs from build to build. */
export function builtPage(title: string, content: string, build: number, builtAt: Date): string {
  const hash = (name: string): string => createHash('sha256').update(`${name}${build}`).digest('hex').slice(0, 8);
  const vite = createHash('sha256').update(`vite${build}`).digest('base64url').slice(0, 8);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="generator" content="Astro v4.${build}.0">
<title>${title}</title>
<link rel="stylesheet" href="/_astro/index.${hash('css')}.css">
<link rel="modulepreload" href="/assets/vendor-${vite}.js">
<link rel="icon" href="/favicon.${hash('icon')}.svg">
<script type="module" src="/_astro/hoisted.${hash('js')}.js"></script>
<style>.astro-${hash('scope')}{color:red}</style>
</head>
<body class="astro-${hash('scope')}" data-build="${build}">
<!-- build ${build} -->
<main>${content}</main>
<img src="/_astro/logo.${hash('logo')}.webp" alt="Logo">
<footer>Built ${builtAt.toUTCString()}</footer>
<script>window.__BUILD__ = ${build};</script>
</body>
</html>
`;
}

export class BuildDirectory {
  private builds = 0;

  constructor(readonly dir: string) {}

  /**
   * Writes one build of `pages` at the time `builtAt` (every file's modification time), and
   * removes the .html files of earlier builds that are not among them. Other files are left.
   */
  async build(pages: Pages, builtAt: Date): Promise<void> {
    const build = ++this.builds;
    await mkdir(this.dir, { recursive: true });
    for (const path of await htmlFiles(this.dir)) if (!(path in pages)) await rm(join(this.dir, path));
    for (const [path, content] of Object.entries(pages)) {
      const file = join(this.dir, path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, builtPage(path, content, build, builtAt));
      await utimes(file, builtAt, builtAt);
    }
  }
}

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) =>
      join(entry.parentPath, entry.name)
        .slice(dir.length + 1)
        .replaceAll('\\', '/'),
    );
}
