import { defineConfig } from 'astro/config';
import sitemapkit from 'sitemapkit/astro';

export default defineConfig({
  site: 'https://www.example.net',
  trailingSlash: 'never',
  build: { format: 'file' },
  i18n: {
    defaultLocale: 'en',
    locales: ['en', 'fr'],
    routing: { prefixDefaultLocale: false },
  },
  redirects: { '/old-about': '/about' },
  integrations: [sitemapkit()],
});
