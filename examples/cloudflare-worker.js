// A Cloudflare Worker serving the sitemaps of 10,000,000 products: /sitemap.xml is the index,
// /sitemap-0.xml.gz … /sitemap-199.xml.gz the shards, each streamed from one page of the source.
import { serveSitemaps } from 'sitemapkit/web';
import { products } from './catalog.js';

export default {
  fetch(request) {
    return serveSitemaps(request, products, {
      baseUrl: 'https://shop.example.com/',
      gzip: true,
      cacheControl: 'public, max-age=3600',
    });
  },
};
