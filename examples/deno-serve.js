// A Deno server (deno run --allow-net --allow-env examples/deno-serve.js) answering the sitemaps of
// 10,000,000 products, and 404 for everything else.
/* global Deno */
import { serveSitemaps } from 'sitemapkit/web';
import { products } from './catalog.js';

const options = { baseUrl: 'https://shop.example.com/', gzip: true };

Deno.serve({ hostname: '127.0.0.1', port: Number(Deno.env.get('PORT') ?? 8000) }, (request) => {
  const { pathname } = new URL(request.url);
  if (pathname.startsWith('/sitemap')) return serveSitemaps(request, products, options);
  return new Response('Not found', { status: 404 });
});
