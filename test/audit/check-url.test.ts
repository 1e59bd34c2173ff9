/**
 * The one check of a listed URL (audit/checker.ts checkListedUrl), as both the audit of one
 * process and the workers of a run call it: whether a redirect's target is listed may be asked of
 * a store over the wire (a promise), for an HTTP redirect and for a meta refresh alike.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { checkListedUrl } from '../../src/audit/checker.js';
import { RobotsTxtCache } from '../../src/discover/robots.js';
import { HttpClient } from '../../src/http/client.js';
import { startSite } from '../helpers/site-server.js';

const HTML = { 'content-type': 'text/html' };
const site = await startSite((origin) => ({
  '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
  '/moved': { status: 301, headers: { location: `${origin}/listed` } },
  '/refresh': {
    headers: HTML,
    body: `<html><head><meta http-equiv="refresh" content="0; url=${origin}/listed"><title>r</title></head></html>`,
  },
  '/listed': { headers: HTML, body: '<html><head><title>here</title></head><body><h1>here</h1></body></html>' },
}));
const http = new HttpClient({ retries: 0 });
after(async () => {
  await http.close();
  await site.close();
});

for (const path of ['/moved', '/refresh'])
  test(`a redirect's target is asked of an asynchronous look-up (${path})`, async () => {
    const asked: string[] = [];
    const isListed = (url: string) => {
      asked.push(url);
      return Promise.resolve(url === site.url('/listed'));
    };
    const { checked, fetched } = await checkListedUrl(
      { url: site.url(path), sitemap: site.url('/sitemap.xml') },
      {
        http,
        robots: new RobotsTxtCache(http),
        maxPageBytes: 100_000,
        context: { now: Date.now(), httpsHosts: new Set() },
        isListed,
      },
    );
    assert.equal(fetched, true);
    assert.deepEqual(asked, [site.url('/listed')]);
    assert.equal(checked.targetListed, true);
    assert.ok(checked.findings.includes('redirect'), checked.findings.join(', '));
  });
