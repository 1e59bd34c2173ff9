/**
 * The XML of a URL entry as anyone would write it first: template strings and a regex escape,
 * no rule checked. The naive writer of generate.bench.ts and the floor of generate-floor.ts write
 * the same bytes with it.
 */
import type { UrlEntry } from '../src/core/index.js';

export const NAIVE_URLSET_HEADER =
  '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n';

function escape(text: string): string {
  return /[&<>"']/.test(text)
    ? text
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;')
        .replace(/'/g, '&apos;')
    : text;
}

/** One `<url>` element and its line break. */
export function naiveUrlXml(page: Omit<UrlEntry, 'kind'>): string {
  let xml = `<url><loc>${escape(page.loc)}</loc>`;
  if (page.lastmod) xml += `<lastmod>${page.lastmod}</lastmod>`;
  if (page.changefreq)
    xml += `<changefreq>${page.changefreq}</changefreq><priority>${page.priority!.toFixed(1)}</priority>`;
  if (page.images)
    for (const image of page.images) xml += `<image:image><image:loc>${escape(image.loc)}</image:loc></image:image>`;
  return `${xml}</url>\n`;
}
