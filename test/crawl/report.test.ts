import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type CrawlReport,
  crawlReport,
  formatCrawlProgress,
  formatCrawlReportJson,
  formatCrawlReportText,
} from '../../src/report/crawl.js';
import type { CrawlSummary } from '../../src/crawl/summary.js';

const SUMMARY: CrawlSummary = {
  startUrl: 'https://example.com/',
  finished: true,
  fetched: 1234,
  listed: 1200,
  leftOut: [
    {
      reason: 'http-error',
      count: 7,
      examples: [
        { url: 'https://example.com/a', detail: 'HTTP 404' },
        { url: 'https://example.com/b', detail: 'HTTP 410' },
      ],
    },
    { reason: 'out-of-scope', count: 1, examples: [{ url: 'https://other.example/', detail: '' }] },
  ],
  unread: 0,
};

describe('crawl report', () => {
  it('prints counts, each reason with its examples, how many more, the files and the robots.txt line', () => {
    const report = crawlReport(SUMMARY, 61_500, {
      files: [
        { name: 'sitemap-0.xml', url: 'https://example.com/sitemap-0.xml', urls: 1000, bytes: 1 },
        { name: 'sitemap-1.xml', url: 'https://example.com/sitemap-1.xml', urls: 200, bytes: 1 },
      ],
      index: { name: 'sitemap.xml', url: 'https://example.com/sitemap.xml', urls: 2, bytes: 1 },
      urls: 1200,
      duplicates: 0,
      skipped: 0,
      problems: { errors: 0, warnings: 0 },
      removed: [],
      unchanged: [],
      leftovers: [],
      robotsTxt: ['Sitemap: https://example.com/sitemap.xml'],
    });
    assert.equal(
      formatCrawlReportText(report),
      [
        'Crawled https://example.com/ in 61.5 s',
        '  1,234 fetched, 1,200 listed, 8 left out',
        '',
        'Left out:',
        '       7  HTTP error (4xx)',
        '          https://example.com/a  (HTTP 404)',
        '          https://example.com/b  (HTTP 410)',
        '          … and 5 more',
        '       1  out of scope (other host, --include/--exclude)',
        '          https://other.example/',
        '',
        'Sitemaps:',
        '  sitemap-0.xml  1,000 URLs',
        '  sitemap-1.xml  200 URLs',
        '  sitemap.xml  (index)',
        '',
        'Add to robots.txt:',
        '  Sitemap: https://example.com/sitemap.xml',
        '',
      ].join('\n'),
    );
    const json = JSON.parse(formatCrawlReportJson(report)) as CrawlReport;
    assert.deepEqual(json.sitemaps, {
      files: [
        { name: 'sitemap-0.xml', url: 'https://example.com/sitemap-0.xml', urls: 1000 },
        { name: 'sitemap-1.xml', url: 'https://example.com/sitemap-1.xml', urls: 200 },
      ],
      index: 'sitemap.xml',
      robotsTxt: ['Sitemap: https://example.com/sitemap.xml'],
    });
    assert.equal(json.leftOut[0]?.count, 7);
  });

  it('warns of listed pages that robots.txt keeps search engines out of', () => {
    const text = formatCrawlReportText(
      crawlReport(
        {
          ...SUMMARY,
          leftOut: [],
          blockedForEngines: {
            count: 2,
            examples: [{ url: 'https://example.com/x', detail: 'robots.txt blocks Googlebot, bingbot' }],
          },
        },
        1000,
      ),
    );
    assert.match(
      text,
      /\n\nListed, but robots\.txt keeps search engines out \(URL-010, [^\n]*\n {7}2 {2}listed pages\n {10}https:\/\/example\.com\/x {2}\(robots\.txt blocks Googlebot, bingbot\)\n {10}… and 1 more\n$/,
    );
  });

  it('says when the crawl stopped early, and has no sitemap section then', () => {
    const text = formatCrawlReportText(crawlReport({ ...SUMMARY, finished: false, leftOut: [] }, 2000));
    assert.equal(
      text,
      'Crawled https://example.com/ (stopped before the end) in 2.0 s\n  1,234 fetched, 1,200 listed, 0 left out\n',
    );
  });

  it('names each trap space once, with its size and the first URL met in it', () => {
    const text = formatCrawlReportText(
      crawlReport(
        {
          ...SUMMARY,
          leftOut: [
            {
              reason: 'trap',
              count: 2_005,
              examples: [],
              spaces: [
                { detail: 'the path repeats /a/ 3 times in a row', count: 1, example: 'https://example.com/a/a/a/' },
                {
                  detail: 'more than --max-query-variants 1000 query variants of https://example.com/shop',
                  count: 2_000,
                  example: 'https://example.com/shop?f=1',
                },
              ],
            },
          ],
        },
        1000,
      ),
    );
    assert.match(
      text,
      /\n {3}2,005 {2}spider trap: [^\n]*\n {10}1 URL: the path repeats \/a\/ 3 times in a row \(first https:\/\/example\.com\/a\/a\/a\/\)\n {10}2,000 URLs: more than --max-query-variants 1000 query variants of https:\/\/example\.com\/shop \(first https:\/\/example\.com\/shop\?f=1\)\n {10}… and 4 URLs in other trap spaces\n$/,
    );
  });

  it('formats the progress line with the rate', () => {
    assert.equal(
      formatCrawlProgress({ fetched: 12_345, queued: 678, listed: 12_000, errors: 3 }, 10_000),
      '12,345 fetched · 678 queued · 12,000 listed · 1234.5 pages/s · 3 unread',
    );
  });

  it('counts in the rate only the pages of this run, not those a resumed crawl had fetched', () => {
    assert.equal(
      formatCrawlProgress({ fetched: 12_345, fetchedEarlier: 12_000, queued: 0, listed: 12_000, errors: 3 }, 10_000),
      '12,345 fetched · 0 queued · 12,000 listed · 34.5 pages/s · 3 unread',
    );
  });

  it("names the start page's outcome when it was not listed, the pages not read, and the file of every left-out URL", () => {
    const text = formatCrawlReportText(
      crawlReport(
        {
          ...SUMMARY,
          listed: 0,
          leftOut: [],
          start: { outcome: 'non-html', detail: 'application/xml' },
          unread: 2,
        },
        1000,
        undefined,
        { path: 'left-out.csv', urls: 8 },
      ),
    );
    assert.equal(
      text,
      [
        'Crawled https://example.com/ in 1.0 s',
        '  1,234 fetched, 0 listed, 0 left out',
        '  The start page was not listed: not HTML (application/xml)',
        '  2 pages could not be read (server error, no response, cut off): the sitemaps may lack them and the pages only they link to',
        '  Every URL left out, with the page it was found on: left-out.csv',
        '',
      ].join('\n'),
    );
  });

  it('says which tracking parameters were removed, from how many URLs, with examples', () => {
    const text = formatCrawlReportText(
      crawlReport(
        {
          ...SUMMARY,
          leftOut: [],
          strippedParams: {
            urls: 3,
            names: [
              {
                name: 'utm_source',
                urls: 2,
                examples: [
                  { from: 'https://example.com/shop/?utm_source=nl', to: 'https://example.com/shop/' },
                  { from: 'https://example.com/?utm_source=x&id=1', to: 'https://example.com/?id=1' },
                ],
              },
              {
                name: 'fbclid',
                urls: 1,
                examples: [{ from: 'https://example.com/?fbclid=z', to: 'https://example.com/' }],
              },
            ],
          },
        },
        1000,
      ),
    );
    assert.match(
      text,
      /\n\nTracking parameters removed from 3 URLs \(--keep-param NAME keeps one\):\n {7}2 {2}utm_source\n {10}https:\/\/example\.com\/shop\/\?utm_source=nl → https:\/\/example\.com\/shop\/\n {10}https:\/\/example\.com\/\?utm_source=x&id=1 → https:\/\/example\.com\/\?id=1\n {7}1 {2}fbclid\n {10}https:\/\/example\.com\/\?fbclid=z → https:\/\/example\.com\/\n$/,
    );
  });
});
