/**
 * Dates the pages of a build folder that git does not hold (dist/ is ignored, or built elsewhere)
 * by the commits of their sources in another folder of a git checkout (`--git-dir`).
 *
 * A built page finds its sources by its path, without the extension: `about/index.html` is
 * made from a file named `about/index.EXT` or `about.EXT` below that folder, `blog/post.html`
 * from `blog/post.EXT`, where EXT is a common source extension ({@link SOURCE_EXTENSIONS}). Its
 * lastmod is the most recent commit of those files that are committed unmodified (commit-times.ts).
 */
import type { CommitTimes } from './commit-times.js';

/** Extensions of the files pages are built from: markup, templates, components. */
export const SOURCE_EXTENSIONS = [
  'md', 'markdown', 'mdx', 'mdoc', 'markdoc', 'html', 'htm', 'njk', 'liquid', 'hbs', 'handlebars', 'ejs',
  'pug', 'astro', 'vue', 'svelte', 'jsx', 'tsx', 'js', 'ts', 'rst', 'adoc', 'asciidoc', 'org',
] as const; // prettier-ignore

const SOURCE_EXTENSION = new RegExp(`\\.(?:${SOURCE_EXTENSIONS.join('|')})$`, 'i');

/** The last commit time of a page's sources, by the page's path relative to its build folder. */
export class GitSourceTimes {
  /** The tracked source files, by their path without the extension. */
  private readonly sources = new Map<string, string[]>();
  /** Pages for which no committed, unmodified source was found. */
  unsourced = 0;
  /** The first such page, for the note that says why it has no lastmod. */
  firstUnsourced: string | undefined;

  constructor(private readonly times: CommitTimes) {
    for (const path of times.trackedPaths()) {
      if (!SOURCE_EXTENSION.test(path)) continue;
      const stem = path.replace(SOURCE_EXTENSION, '');
      const paths = this.sources.get(stem);
      if (paths === undefined) this.sources.set(stem, [path]);
      else paths.push(path);
    }
  }

  /** The sources a built page may come from: same path without its extension, and its folder for an index page. */
  sourcesOf(page: string): string[] {
    const stem = page.replace(/\.[^./]*$/, '');
    const stems = [stem];
    const folder = /^(.+)\/index$/.exec(stem)?.[1];
    if (folder !== undefined) stems.push(folder);
    return stems.flatMap((candidate) => this.sources.get(candidate) ?? []);
  }

  /** The most recent commit time (ISO 8601) of the page's sources, or undefined when none is committed unmodified. */
  async timeOf(page: string): Promise<string | undefined> {
    let latest: string | undefined;
    for (const source of this.sourcesOf(page)) {
      const time = await this.times.timeOf(source);
      if (time !== undefined && (latest === undefined || Date.parse(time) > Date.parse(latest))) latest = time;
    }
    if (latest === undefined) {
      this.unsourced++;
      this.firstUnsourced ??= page;
    }
    return latest;
  }

  close(): void {
    this.times.close();
  }
}
