/**
 * The shared suite's host in workerd, bundled as a Worker (runtimes.test.ts): `/suite` runs every
 * case and answers the results as JSON; `/parse?url=…` fetches a sitemap (from the test's server
 * on 127.0.0.1) and answers what parseSitemap read of it; anything else is served by
 * serveSitemaps from a set of 120,000 URLs.
 */
import * as web from 'sitemapkit/web';
import { runCases } from './suite.js';

const SET_SIZE = 120_000;

const catalogue: web.PagedSource = {
  count: () => SET_SIZE,
  *page(index, size) {
    const end = Math.min(SET_SIZE, (index + 1) * size);
    for (let i = index * size; i < end; i++) yield { loc: `https://shop.example.com/item/${i}`, lastmod: '2024-05-01' };
  },
};

async function parsed(url: string): Promise<Response> {
  const parsed = web.parseSitemap(await fetch(url));
  const locs: string[] = [];
  for await (const entry of parsed) locs.push(entry.loc);
  return Response.json({
    kind: parsed.kind,
    gzip: parsed.stats.gzip,
    locs,
    diagnostics: parsed.diagnostics.map((d) => d.code),
  });
}

export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/suite') return Response.json(await runCases(web));
    if (url.pathname === '/parse') return parsed(url.searchParams.get('url')!);
    return web.serveSitemaps(request, catalogue, { baseUrl: 'https://shop.example.com/', gzip: true });
  },
};
