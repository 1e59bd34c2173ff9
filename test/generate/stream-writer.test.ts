import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { test } from 'node:test';
import { createSitemapWriter } from '../../src/generate/index.js';
import { startSite } from '../helpers/site-server.js';
import { validateAgainstXsd } from '../helpers/xsd.js';
import { BASE_URL, locsOf, plainEntries } from './entries.js';

test('the low-level writer serves a sitemap straight into an HTTP response, honouring backpressure', async () => {
  let drains = 0;
  const serve = async (response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'application/xml; charset=utf-8' });
    const writer = createSitemapWriter(response, { namespaces: [] });
    for (const entry of plainEntries(5_000)) {
      writer.write(entry);
      if (writer.needsDrain) {
        drains++;
        await writer.drain();
      }
    }
    await writer.end();
  };
  const site = await startSite({ '/sitemap.xml': (_request, response) => serve(response) });
  try {
    const response = await fetch(site.url('/sitemap.xml'));
    assert.equal(response.status, 200);
    const xml = await response.text();
    const locs = locsOf(xml);
    assert.equal(locs.length, 5_000);
    assert.equal(locs[4_999], `${BASE_URL}page/4999`);
    assert.ok(drains > 0, '64 KiB chunks exceed the response buffer, so the writer waits at least once');
    assert.deepEqual((await validateAgainstXsd(xml, 'sitemap')).errors, []);
  } finally {
    await site.close();
  }
});
