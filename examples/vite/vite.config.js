import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import sitemapkit from 'sitemapkit/vite';

// A multi-page app: each HTML file is an entry, and a page of the site.
export default defineConfig({
  build: {
    rollupOptions: {
      input: {
        home: resolve(import.meta.dirname, 'index.html'),
        about: resolve(import.meta.dirname, 'about/index.html'),
        hidden: resolve(import.meta.dirname, 'hidden.html'),
      },
    },
  },
  plugins: [sitemapkit({ baseUrl: 'https://app.example.com/' })],
});
