// A Bun server (bun examples/bun-server.js) answering the sitemaps of 10,000,000 products, and
// 404 for everything else.
/* global Bun */
import { serveSitemaps } from 'sitemapkit/web';
import { products } from './catalog.js';

const options = { baseUrl: 'https://shop.example.com/', gzip: true };

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.PORT ?? 3000),
  fetch(request) {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith('/sitemap')) return serveSitemaps(request, products, options);
    return new Response('Not found', { status: 404 });
  },
});
console.log(`Listening on ${server.url}`);
