/** The flags of `sitemapkit tree`, one table for one site (tree.ts) and many (tree-sites.ts). */
import { defineFlags } from './flags.js';
import { networkFlags } from './network-options.js';
import { PROBLEM_FLAGS } from './problem-options.js';
import { RUN_FLAGS } from './run-options.js';

export const OUTPUT = 'Output';
export const MANY_SITES = 'Many sites';
const OPTIONS = 'Options';

export const TREE_FLAGS = defineFlags({
  json: { type: 'boolean', group: OUTPUT, help: 'the tree as one JSON document' },
  urls: {
    type: 'boolean',
    group: OUTPUT,
    help: 'every URL entry of the tree as JSONL, each with "source" (its sitemap)',
  },
  sites: {
    type: 'string',
    value: 'FILE',
    group: MANY_SITES,
    help: `the trees of every site in FILE (one host, origin or sitemap URL a line; blank lines and # comments skipped), walked by the workers of a run: JSON lines on stdout, each site's summary row ("kind":"site") after its URL entries (with --urls, each with "source" and "site"); each site is walked once, by one worker`,
  },
  out: {
    type: 'string',
    value: 'FILE',
    group: MANY_SITES,
    help: "once the run is done, every site's summary row into FILE (JSONL)",
  },
  'max-depth': {
    type: 'integer',
    value: 'N',
    min: 0,
    default: 5,
    group: OPTIONS,
    help: 'index levels followed below a root',
  },
  state: {
    type: 'string',
    value: 'DIR',
    group: OPTIONS,
    help: "remember each sitemap read whole (its ETag, Last-Modified and body digest, in DIR/tree.sqlite) and, next time, ask with If-None-Match and If-Modified-Since: a 304 or the same body marks it unchanged, its counts taken from the last walk (an index's children are still walked). A sitemap that fails (5xx, 408, 429…) is never taken for unchanged or empty",
  },
  'changed-only': {
    type: 'boolean',
    group: OPTIONS,
    help: "with --urls and --state: only the entries of sitemaps that changed since the last walk (a crawler's daily ingestion reads only what changed); without it, --urls prints every entry and fetches every sitemap whole",
  },
  quiet: {
    type: 'boolean',
    short: 'q',
    group: OPTIONS,
    help: 'no progress line or retry notice on stderr (nor, with --urls, the closing count)',
  },
  ...PROBLEM_FLAGS,
  ...networkFlags('pool'),
  ...RUN_FLAGS,
});
