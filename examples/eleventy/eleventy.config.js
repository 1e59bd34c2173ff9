import sitemapkit from 'sitemapkit/eleventy';

export default function (eleventyConfig) {
  eleventyConfig.addPlugin(sitemapkit, { baseUrl: 'https://blog.example.com/' });
}

export const config = { dir: { input: 'content', output: '_site' } };
