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
        { url: 'https://example.com/b', detail: 'HTTP 500' },
      ],
    },
    { reason: 'out-of-scope', count: 1, examples: [{ url: 'https://other.example/', detail: '' }] },
  ],
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
        '       7  HTTP error (4xx/5xx)',
        '          https://example.com/a  (HTTP 404)',
        '          https://example.com/b  (HTTP 500)',
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

  it('formats the progress line with the rate', () => {
    assert.equal(
      formatCrawlProgress({ fetched: 12_345, queued: 678, listed: 12_000, errors: 3 }, 10_000),
      '12,345 fetched · 678 queued · 12,000 listed · 1234.5 pages/s · 3 errors',
    );
  });
});
