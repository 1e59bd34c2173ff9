import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { judgeAnswer, readAnswer, type Judgement, type Normaliser } from '../../src/crawl/judge.js';
import { normaliseCrawlUrl } from '../../src/crawl/normalise.js';
import { paramFilter } from '../../src/crawl/tracking-params.js';
import type { FetchedPage } from '../../src/crawl/types.js';

const URL_A = 'https://example.com/a';
const strip = paramFilter();
const normalise = (href: string) => normaliseCrawlUrl(href, undefined, strip);

/** Reads and judges in one step, as the crawler does. */
async function judgePage(url: string, page: FetchedPage, normaliser: Normaliser): Promise<Judgement> {
  return judgeAnswer(url, await readAnswer(page), normaliser);
}

function answer(fields: Partial<FetchedPage> & { html?: string }): FetchedPage {
  const { html, ...rest } = fields;
  return {
    url: URL_A,
    redirects: [],
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: new TextEncoder().encode(html ?? '<html><body>hello</body></html>'),
    fetchedAt: Date.parse('2024-06-01T00:00:00Z'),
    ...rest,
  };
}

describe('judgePage', () => {
  it('lists a plain 200 HTML page with a digest of its bytes, and returns its links', async () => {
    const html = '<a href="/b#x">b</a><a href="/c?utm_source=1">c</a>';
    const judged = await judgePage(URL_A, answer({ html }), normalise);
    const bodyDigest = createHash('sha256').update(html).digest('hex').slice(0, 32);
    assert.deepEqual(judged.verdict, { outcome: 'listed', entry: { kind: 'url', loc: URL_A, bodyDigest } });
    assert.deepEqual(judged.discovered, [
      { url: 'https://example.com/b', via: 'link' },
      { url: 'https://example.com/c', via: 'link' },
    ]);
  });

  it('judges a redirect back to the same normalised URL as the page itself', async () => {
    const page = answer({
      url: `${URL_A}?utm_source=x`,
      redirects: [{ from: URL_A, to: `${URL_A}?utm_source=x`, status: 302 }],
    });
    assert.equal((await judgePage(URL_A, page, normalise)).verdict.outcome, 'listed');
  });

  it('leaves out other statuses, with the status as the detail; server errors apart', async () => {
    for (const status of [204, 304, 404, 410, 501]) {
      assert.deepEqual((await judgePage(URL_A, answer({ status }), normalise)).verdict, {
        outcome: 'http-error',
        detail: `HTTP ${status}`,
      });
    }
    for (const status of [429, 500, 503]) {
      assert.deepEqual((await judgePage(URL_A, answer({ status }), normalise)).verdict, {
        outcome: 'server-error',
        detail: `HTTP ${status}`,
      });
    }
  });

  it('sniffs HTML when there is no Content-Type, and leaves out other types', async () => {
    assert.equal(
      (await judgePage(URL_A, answer({ headers: {}, html: '  <!DOCTYPE html><p>x' }), normalise)).verdict.outcome,
      'listed',
    );
    assert.deepEqual(
      (await judgePage(URL_A, answer({ headers: {}, body: new Uint8Array([0x25, 0x50]) }), normalise)).verdict,
      { outcome: 'non-html', detail: 'no Content-Type, and the body does not start like HTML' },
    );
    assert.deepEqual(
      (await judgePage(URL_A, answer({ headers: { 'content-type': 'image/png' } }), normalise)).verdict,
      { outcome: 'non-html', detail: 'image/png' },
    );
  });

  it('follows the links of a noindex page unless it is also nofollow', async () => {
    const noindex = await judgePage(
      URL_A,
      answer({ html: '<meta name="robots" content="noindex"><a href="/b">b</a>' }),
      normalise,
    );
    assert.equal(noindex.verdict.outcome, 'noindex');
    assert.deepEqual(
      noindex.discovered.map((d) => d.url),
      ['https://example.com/b'],
    );
    const none = await judgePage(
      URL_A,
      answer({ headers: { 'content-type': 'text/html', 'x-robots-tag': 'none' }, html: '<a href="/b">b</a>' }),
      normalise,
    );
    assert.deepEqual(none.verdict, { outcome: 'noindex', detail: 'noindex in the X-Robots-Tag header' });
    assert.deepEqual(none.discovered, []);
  });

  it('takes one canonical elsewhere, from the head or a Link header, and queues it', async () => {
    const header = await judgePage(
      URL_A,
      answer({ headers: { 'content-type': 'text/html', link: '</main>; rel="canonical"' } }),
      normalise,
    );
    assert.deepEqual(header.verdict, { outcome: 'canonicalised', detail: 'canonical is https://example.com/main' });
    assert.deepEqual(header.discovered, [{ url: 'https://example.com/main', via: 'canonical' }]);
    const self = await judgePage(
      URL_A,
      answer({ html: '<link rel="canonical" href="https://EXAMPLE.com/a#top">' }),
      normalise,
    );
    assert.equal(self.verdict.outcome, 'listed');
  });

  it('ignores conflicting canonicals (CR-04)', async () => {
    const page = answer({
      headers: { 'content-type': 'text/html', link: '</one>; rel=canonical' },
      html: '<link rel="canonical" href="/two">',
    });
    assert.equal((await judgePage(URL_A, page, normalise)).verdict.outcome, 'listed');
  });

  it('reads the page in the charset of its Content-Type', async () => {
    const page = answer({
      headers: { 'content-type': 'text/html; charset="windows-1252"' },
      body: Buffer.from('<a href="/\u00fcber">x</a>', 'latin1'),
    });
    assert.deepEqual((await judgePage(URL_A, page, normalise)).discovered, [
      { url: 'https://example.com/%C3%BCber', via: 'link' },
    ]);
  });

  it('leaves out a redirect without a crawlable target as an HTTP error', async () => {
    const page = answer({
      url: 'ftp://example.com/x',
      redirects: [{ from: URL_A, to: 'ftp://example.com/x', status: 301 }],
    });
    assert.equal((await judgePage(URL_A, page, normalise)).verdict.outcome, 'http-error');
  });

  it('leaves out a page that redirects by meta refresh, queues its target a link deeper, and still follows its links', async () => {
    const judged = await judgePage(
      URL_A,
      answer({
        html: '<head><meta http-equiv="refresh" content="0; url=/b?utm_source=x"><meta name="robots" content="noindex"></head><a href="/c">c</a>',
      }),
      normalise,
    );
    assert.deepEqual(judged.verdict, { outcome: 'meta-refresh', detail: 'meta refresh to https://example.com/b' });
    assert.deepEqual(judged.discovered, [
      { url: 'https://example.com/b', via: 'client-redirect' },
      { url: 'https://example.com/c', via: 'link' },
    ]);
    const later = await judgePage(
      URL_A,
      answer({ html: '<meta http-equiv="refresh" content="10;url=https://other.example/">' }),
      normalise,
    );
    assert.deepEqual(later.verdict, {
      outcome: 'meta-refresh',
      detail: 'meta refresh after 10 s to https://other.example/',
    });
  });

  it('leaves out a page that redirects by script, saying how', async () => {
    const judged = await judgePage(URL_A, answer({ html: '<script>window.location = "/b";</script>' }), normalise);
    assert.deepEqual(judged.verdict, {
      outcome: 'js-redirect',
      detail: 'window.location in an inline script to https://example.com/b',
    });
    assert.deepEqual(judged.discovered, [{ url: 'https://example.com/b', via: 'client-redirect' }]);
  });

  it('lists a page that refreshes to itself or only reloads, and says when the target cannot be crawled', async () => {
    for (const html of [
      '<meta http-equiv="refresh" content="0;url=/a#top">',
      '<meta http-equiv="refresh" content="60">',
      '<script>location.href = "?utm_source=x"</script>',
    ]) {
      assert.equal((await judgePage(URL_A, answer({ html }), normalise)).verdict.outcome, 'listed', html);
    }
    const mail = await judgePage(
      URL_A,
      answer({ html: '<meta http-equiv="refresh" content="0;url=mailto:me@example.com">' }),
      normalise,
    );
    assert.deepEqual(mail, {
      verdict: { outcome: 'meta-refresh', detail: 'meta refresh to mailto:me@example.com, which cannot be crawled' },
      discovered: [],
    });
  });
});

describe('readAnswer', () => {
  // eslint-disable-next-line @typescript-eslint/require-await -- an async body, as a response has
  async function* chunks(...parts: string[]): AsyncIterable<Uint8Array> {
    for (const part of parts) yield new TextEncoder().encode(part);
  }

  it('streams the body through the HTML reader, chunk by chunk, and lets go of it', async () => {
    let discarded = 0;
    const page = answer({
      body: chunks('<a hr', 'ef="/b">b</a><link rel="canon', 'ical" href="/a">'),
      discard: () => discarded++,
    });
    const judged = await judgePage(URL_A, page, normalise);
    assert.equal(judged.verdict.outcome, 'listed');
    assert.deepEqual(judged.discovered, [{ url: 'https://example.com/b', via: 'link' }]);
    assert.equal(discarded, 1);
  });

  it('does not read the body of an error or a non-HTML answer', async () => {
    let read = false;
    // eslint-disable-next-line @typescript-eslint/require-await -- an async body, as a response has
    async function* body(): AsyncIterable<Uint8Array> {
      read = true;
      yield new Uint8Array();
    }
    assert.equal((await readAnswer(answer({ status: 404, body: body() }))).facts, undefined);
    assert.equal(
      (await readAnswer(answer({ headers: { 'content-type': 'application/pdf' }, body: body() }))).facts,
      undefined,
    );
    assert.equal(read, false);
  });

  it('stops after the first bytes of an untyped body that does not look like HTML', async () => {
    let chunksRead = 0;
    // eslint-disable-next-line @typescript-eslint/require-await -- an async body, as a response has
    async function* body(): AsyncIterable<Uint8Array> {
      for (const part of ['%PDF-1.7\n', 'x'.repeat(2000), '<html>']) {
        chunksRead++;
        yield new TextEncoder().encode(part);
      }
    }
    assert.equal((await readAnswer(answer({ headers: {}, body: body() }))).facts, undefined);
    assert.equal(chunksRead, 2);
  });

  it('leaves out a body declared HTML whose bytes are binary, naming what they are', async () => {
    const gzipped = gzipSync('<!doctype html><a href="/b">b</a>');
    assert.deepEqual((await judgePage(URL_A, answer({ body: gzipped }), normalise)).verdict, {
      outcome: 'non-html',
      detail: 'served as text/html, but the body is gz data (application/gzip)',
    });
    const binary = new Uint8Array([0x3c, 0x70, 0x3e, 0x00, 0x01, 0x02, 0x10]);
    assert.deepEqual((await judgePage(URL_A, answer({ body: binary }), normalise)).verdict, {
      outcome: 'non-html',
      detail: 'served as text/html, but the body is binary data',
    });
    // UTF-16 text has zero bytes too: its BOM (or charset) says it is text.
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<a href="/b">b</a>', 'utf16le')]);
    assert.equal((await judgePage(URL_A, answer({ body: utf16 }), normalise)).verdict.outcome, 'listed');
  });

  it('does not list a page cut off by the size limit, but follows the links read before the cut', async () => {
    const page = answer({
      html: '<a href="/b">b</a><a href="/c">c</a>',
      cutOff: () => ({ limitBytes: 1024, wireBytes: 1024 }),
    });
    assert.deepEqual(await judgePage(URL_A, page, normalise), {
      verdict: {
        outcome: 'cut-off',
        detail: 'cut off at 1,024 bytes (--max-page-bytes): the page is larger, or never ends',
      },
      discovered: [
        { url: 'https://example.com/b', via: 'link' },
        { url: 'https://example.com/c', via: 'link' },
      ],
    });
    const bomb = await judgePage(
      URL_A,
      answer({ cutOff: () => ({ limitBytes: 10_485_760, wireBytes: 10_240 }) }),
      normalise,
    );
    assert.deepEqual(bomb.verdict, {
      outcome: 'cut-off',
      detail:
        'cut off at 10,485,760 bytes (--max-page-bytes): unpacked from 10,240 bytes on the wire: a compression bomb?',
    });
  });
});
