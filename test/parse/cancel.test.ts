/**
 * Stopping early is cheap: breaking out of the loop cancels the source (a Web stream, a Node
 * stream, an HTTP download), and an AbortSignal stops the read.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { parseSitemap } from '../../src/parse/index.js';
import { startSite } from '../helpers/site-server.js';
import { urlset } from './helpers.js';

const URLS = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `<url><loc>https://example.com/${from + i}</loc></url>\n`).join('');

/** An endless urlset as a Web stream, recording how many chunks were pulled and whether it was cancelled. */
function endlessWebStream() {
  const record = { pulls: 0, cancelled: false };
  let n = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      record.pulls++;
      controller.enqueue(Buffer.from((n === 0 ? urlset('').slice(0, -12) : '') + URLS(n * 100, 100)));
      n++;
    },
    cancel() {
      record.cancelled = true;
    },
  });
  return { stream, record };
}

test('breaking out of the loop cancels a Web stream', async () => {
  const { stream, record } = endlessWebStream();
  let seen = 0;
  for await (const _ of parseSitemap(stream)) if (++seen === 150) break;
  assert.equal(record.cancelled, true);
  assert.ok(record.pulls < 10, `${record.pulls} chunks pulled`);
});

test('breaking out of located() cancels too, also through gzip', async () => {
  let destroyed = false;
  const packed = gzipSync(urlset(URLS(0, 100_000)));
  const source = Readable.from(
    (function* () {
      for (let i = 0; i < packed.length; i += 1024) yield packed.subarray(i, i + 1024);
    })(),
  );
  source.on('close', () => (destroyed = true));
  for await (const _ of parseSitemap(source).located()) break;
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(destroyed, true);
});

test('an AbortSignal stops the read with its reason', async () => {
  const { stream, record } = endlessWebStream();
  const controller = new AbortController();
  let seen = 0;
  await assert.rejects(
    (async () => {
      for await (const _ of parseSitemap(stream, { signal: controller.signal }))
        if (++seen === 10) controller.abort(new Error('enough'));
    })(),
    /enough/,
  );
  assert.equal(record.cancelled, true);
});

test('over HTTP, breaking early ends the download', async () => {
  let closedEarly = false;
  let written = 0;
  const site = await startSite({
    '/sitemap.xml': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.write(urlset('').slice(0, -12));
      const timer = setInterval(() => {
        written++;
        res.write(URLS(written * 100, 100));
        if (written > 2000) {
          clearInterval(timer);
          res.end('</urlset>');
        }
      }, 1);
      res.on('close', () => {
        clearInterval(timer);
        closedEarly = written <= 2000;
      });
    },
  });
  try {
    const response = await fetch(site.url('/sitemap.xml'));
    let seen = 0;
    for await (const _ of parseSitemap(response.body!)) if (++seen === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(closedEarly, true);
  } finally {
    await site.close();
  }
});
