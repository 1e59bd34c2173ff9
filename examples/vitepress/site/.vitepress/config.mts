import { defineConfig, type HeadConfig } from 'vitepress';
import { vitepress as sitemapkit } from 'sitemapkit/vite';

// The tests build the site for the address they serve it at.
const SITE = process.env.SITE_URL ?? 'https://docs.example.com';
const LOCALES = { en: '', de: 'de/' } as const;

/** `de/guide.md` → `/de/guide` (clean URLs), `index.md` → `/`. */
const urlOf = (page: string): string => `/${page.replace(/(^|\/)index\.md$/, '$1').replace(/\.md$/, '')}`;

export default defineConfig({
  title: 'Example docs',
  cleanUrls: true,
  locales: {
    root: { label: 'English', lang: 'en' },
    de: { label: 'Deutsch', lang: 'de', link: '/de/' },
  },
  // Each page names its translations, as search engines ask (hreflang, both ways, and x-default).
  transformHead({ pageData, siteConfig }): HeadConfig[] {
    const path = pageData.relativePath.replace(/^de\//, '');
    const versions = Object.entries(LOCALES).filter(([, prefix]) => siteConfig.pages.includes(`${prefix}${path}`));
    if (versions.length < 2) return [];
    const link = (hreflang: string, prefix: string): HeadConfig => [
      'link',
      { rel: 'alternate', hreflang, href: `${SITE}${urlOf(`${prefix}${path}`)}` },
    ];
    return [...versions.map(([lang, prefix]) => link(lang, prefix)), link('x-default', '')];
  },
  buildEnd: sitemapkit({ baseUrl: `${SITE}/` }),
});
