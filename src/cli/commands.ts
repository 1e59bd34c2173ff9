/** The commands of the `sitemapkit` binary, by name: read by main.ts and by scripts/docs-flags.mjs. */
import type { Command } from './command.js';

/**
 * Each command lives in its own module, loaded only when it runs. A new command adds one line here;
 * its summary is the one its own --help prints under the usage line (a test holds them equal).
 */
export const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  generate: {
    summary: 'Turn URL lists or a build directory into sitemaps: sharded, gzipped, indexed.',
    load: async () => (await import('./generate.js')).command,
  },
  parse: {
    summary: 'Read sitemaps (XML, index, RSS, Atom, text; plain or gzip) as one JSON entry per line.',
    load: async () => (await import('./parse.js')).command,
  },
  validate: {
    summary: 'Check sitemaps against every rule of the protocol and of the search engines.',
    load: async () => (await import('./validate.js')).command,
  },
  tree: {
    summary: "Read a site's whole sitemap tree from robots.txt and well-known locations.",
    load: async () => (await import('./tree.js')).command,
  },
  crawl: {
    summary: 'Crawl a site as a search engine would, and write its sitemaps.',
    load: async () => (await import('./crawl.js')).command,
  },
  audit: {
    summary: 'Check a live site against its sitemaps: every listed URL fetched and judged.',
    load: async () => (await import('./audit.js')).command,
  },
  diff: {
    summary: 'Compare two sets of sitemaps: the URLs added, removed, changed (and moved).',
    load: async () => (await import('./diff.js')).command,
  },
  submit: {
    summary: 'Tell IndexNow what was added, changed or removed since the last submission.',
    load: async () => (await import('./submit.js')).command,
  },
  run: {
    summary: 'Show a run shared by workers (run status), or write its outputs again (run finish).',
    load: async () => (await import('./run.js')).command,
  },
  rules: {
    summary: 'Print the rule catalog: what each code means, why it matters, how to fix it.',
    load: async () => (await import('./rules.js')).command,
  },
};
