import sitemapkit from 'sitemapkit/docusaurus';

/** @type {import('@docusaurus/types').Config} */
export default {
  title: 'Example docs',
  // The tests build the site for the address they serve it at.
  url: process.env.SITE_URL ?? 'https://docs.example.org',
  baseUrl: '/',
  trailingSlash: true,
  onBrokenLinks: 'throw',
  presets: [
    [
      '@docusaurus/preset-classic',
      {
        docs: { showLastUpdateTime: true },
        blog: false,
        // sitemapkit writes the sitemap instead of the preset's plugin.
        sitemap: false,
        theme: {},
      },
    ],
  ],
  plugins: [
    ['@docusaurus/plugin-client-redirects', { redirects: [{ from: '/old-intro', to: '/docs/intro' }] }],
    [sitemapkit, {}],
  ],
};
