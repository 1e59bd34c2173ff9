// Runs after `next build` (see package.json): writes the sitemaps of the static export in out/.
import sitemapkit from 'sitemapkit/next';

await sitemapkit({ baseUrl: 'https://shop.example.com/' });
