// A Node http server (node examples/node-http.js) answering the sitemaps of 10,000,000 products,
// and 404 for everything else. Each shard streams into the response with backpressure.
import { createServer } from 'node:http';
import { sitemapHandler } from 'sitemapkit';
import { products } from './catalog.js';

// Entries the handler leaves out (a URL on another host, a repeated one) are logged, never lost unsaid.
const sitemaps = sitemapHandler(products, {
  baseUrl: 'https://shop.example.com/',
  gzip: true,
  onProblem: (problem) => {
    if (problem.severity === 'error') console.warn(`sitemap: ${problem.code} ${problem.message}`);
  },
});

const server = createServer((request, response) => {
  if (request.url?.startsWith('/sitemap')) return sitemaps(request, response);
  response.writeHead(404).end('Not found');
});
server.listen(Number(process.env.PORT ?? 8080), '127.0.0.1', () => {
  console.log(`Listening on http://127.0.0.1:${server.address().port}/`);
});
