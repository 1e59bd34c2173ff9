// Reads a sitemap by URL, plain or gzip, in constant memory, and sums up what it lists; the same
// file runs on Node, Deno (deno run --allow-net) and Bun: node examples/parse-remote.js URL
import { parseSitemap } from 'sitemapkit/web';

const url = globalThis.Deno?.args[0] ?? globalThis.process?.argv[2];
const parsed = parseSitemap(await fetch(url));
let entries = 0;
let newest = '';
for await (const entry of parsed) {
  entries++;
  if (entry.lastmod && entry.lastmod > newest) newest = entry.lastmod;
}
console.log(
  `${url}: ${parsed.kind}${parsed.stats.gzip ? ' (gzip)' : ''}, ${entries} entries, newest lastmod ${newest || 'none'}`,
);
for (const problem of parsed.diagnostics) console.log(`  ${problem.code} ${problem.message}`);
