import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHtmlReader, srcsetUrls, type PageFacts } from '../../src/crawl/html.js';

const PAGE = 'https://example.com/dir/page.html';

/** Reads a page held in memory. */
function readHtml(pageUrl: string, body: Uint8Array | string, charset?: string): PageFacts {
  const reader = createHtmlReader(pageUrl, charset);
  reader.write(body);
  return reader.end();
}

describe('readHtml', () => {
  it('collects followable links, skipping rel=nofollow, resolved against the page', () => {
    const facts = readHtml(
      PAGE,
      '<body><a href="a">A</a><A HREF="/b">B</A><a href="c" rel="external NoFollow">C</a><a name="x">no href</a><a href="https://other.example/">D</a></body>',
    );
    assert.deepEqual(facts.links, ['https://example.com/dir/a', 'https://example.com/b', 'https://other.example/']);
  });

  it('resolves everything against <base href>, even links before it', () => {
    const facts = readHtml(
      PAGE,
      '<a href="early">E</a><head><base href="https://cdn.example.com/root/"></head><a href="late">L</a><img src="i.png">',
    );
    assert.deepEqual(facts.links, ['https://cdn.example.com/root/early', 'https://cdn.example.com/root/late']);
    assert.deepEqual(facts.images, ['https://cdn.example.com/root/i.png']);
  });

  it('reads canonical, hreflang and robots meta in the head only', () => {
    const facts = readHtml(
      PAGE,
      `<html><head>
      <link rel="canonical" href="/canonical">
      <link rel="alternate" hreflang="de" href="/de/page.html">
      <link rel="alternate" type="application/rss+xml" href="/feed">
      <meta name="ROBOTS" content="NoIndex">
      <meta name="googlebot" content="nofollow">
      <meta name="otherbot" content="none">
    </head><body>
      <link rel="canonical" href="/ignored-in-body">
      <meta name="robots" content="none">
    </body></html>`,
    );
    assert.deepEqual(facts.canonicals, ['https://example.com/canonical']);
    assert.deepEqual(facts.alternates, [{ hreflang: 'de', href: 'https://example.com/de/page.html' }]);
    assert.deepEqual(facts.directives, { noindex: true, nofollow: true });
  });

  it('treats "none" as noindex and nofollow, and an unaddressed page as neither', () => {
    assert.deepEqual(readHtml(PAGE, '<meta name="robots" content="none">').directives, {
      noindex: true,
      nofollow: true,
    });
    assert.deepEqual(readHtml(PAGE, '<meta name="robots" content="index, follow">').directives, {
      noindex: false,
      nofollow: false,
    });
    assert.deepEqual(readHtml(PAGE, '<meta name="bingbot" content="noindex">').directives, {
      noindex: true,
      nofollow: false,
    });
  });

  it('collects images from src and srcset without duplicates, and decodes entities', () => {
    const facts = readHtml(
      PAGE,
      '<img src="a.jpg" srcset="a.jpg 1x, b.jpg 2x"><img src="/x.png?a=1&amp;b=2"><img alt="no source">',
    );
    assert.deepEqual(facts.images, [
      'https://example.com/dir/a.jpg',
      'https://example.com/dir/b.jpg',
      'https://example.com/x.png?a=1&b=2',
    ]);
  });

  it('reads a page fed in chunks split anywhere, multi-byte characters included', () => {
    const html =
      '<head><link rel="canonical" href="/caf\u00e9"></head><body><a href="/\u00fcber">\u00fcber</a><img srcset="s.jpg 480w, l.jpg 1080w"></body>';
    const bytes = new TextEncoder().encode(html);
    const whole = readHtml(PAGE, bytes);
    for (const size of [1, 3, 7]) {
      const reader = createHtmlReader(PAGE);
      for (let i = 0; i < bytes.length; i += size) reader.write(bytes.subarray(i, i + size));
      assert.deepEqual(reader.end(), whole, `chunks of ${size}`);
    }
    assert.deepEqual(whole.canonicals, ['https://example.com/caf%C3%A9']);
    assert.deepEqual(whole.links, ['https://example.com/%C3%BCber']);
  });
});

describe('readHtml client redirects', () => {
  it('reads a meta refresh in the head, any case, resolved against <base href>', () => {
    const facts = readHtml(
      PAGE,
      '<head><base href="/moved/"><META HTTP-EQUIV="Refresh" CONTENT="5; URL=\'landing?a=1&amp;b=2\'"></head>',
    );
    assert.deepEqual(facts.clientRedirect, {
      kind: 'meta-refresh',
      href: 'https://example.com/moved/landing?a=1&b=2',
      delaySeconds: 5,
    });
  });

  it('takes the first refresh only, a reload included, and none from the body or <noscript>', () => {
    assert.equal(
      readHtml(
        PAGE,
        '<head><meta http-equiv="refresh" content="30"><meta http-equiv="refresh" content="0;url=/x"></head>',
      ).clientRedirect,
      undefined,
    );
    assert.equal(
      readHtml(PAGE, '<head><noscript><meta http-equiv="refresh" content="0;url=/no-js"></noscript></head>')
        .clientRedirect,
      undefined,
    );
    assert.equal(
      readHtml(PAGE, '<head></head><body><meta http-equiv="refresh" content="0;url=/x"></body>').clientRedirect,
      undefined,
    );
    assert.equal(
      readHtml(
        PAGE,
        '<head><meta http-equiv="refresh" content="later"><meta http-equiv="refresh" content="0;url=/y"></head>',
      ).clientRedirect?.href,
      'https://example.com/y',
    );
  });

  it('reads a navigation in an inline script, in the head or the body, split across chunks', () => {
    const html =
      '<head><script src="/app.js">location.href = "/ignored"</script><script type="application/ld+json">{"location": 1}</script></head>' +
      '<body><script>\n  window.location.replace("../next");\n</script><script>location.href = "/second"</script></body>';
    const expected = { kind: 'js-redirect', href: 'https://example.com/next', how: 'window.location.replace()' };
    assert.deepEqual(readHtml(PAGE, html).clientRedirect, expected);
    const reader = createHtmlReader(PAGE);
    for (let i = 0; i < html.length; i += 5) reader.write(html.slice(i, i + 5));
    assert.deepEqual(reader.end().clientRedirect, expected);
  });

  it('has no redirect for a page without one', () => {
    assert.equal(
      readHtml(PAGE, '<script>document.querySelector("a").onclick = function () { location.href = "/x"; };</script>')
        .clientRedirect,
      undefined,
    );
    assert.ok(!('clientRedirect' in readHtml(PAGE, '<a href="/x">x</a>')));
  });
});

describe('readHtml charsets', () => {
  it('decodes the body in the charset the server names, and UTF-8 otherwise', () => {
    const latin1 = Buffer.from('<a href="/caf\u00e9">x</a>', 'latin1');
    assert.deepEqual(readHtml(PAGE, latin1, 'ISO-8859-1').links, ['https://example.com/caf%C3%A9']);
    assert.deepEqual(readHtml(PAGE, latin1, 'no-such-charset').links, ['https://example.com/caf%EF%BF%BD']);
  });
});

describe('srcsetUrls', () => {
  it('drops descriptors and keeps commas inside URLs', () => {
    assert.deepEqual(srcsetUrls('a.jpg 1x, b.jpg 2x'), ['a.jpg', 'b.jpg']);
    assert.deepEqual(srcsetUrls('img,1.jpg 100w,img,2.jpg 200w'), ['img,1.jpg', 'img,2.jpg']);
    assert.deepEqual(srcsetUrls(' only.jpg '), ['only.jpg']);
    assert.deepEqual(srcsetUrls('a.jpg, b.jpg 2x,c.jpg'), ['a.jpg', 'b.jpg', 'c.jpg']);
    assert.deepEqual(srcsetUrls('a.jpg (future descriptor, with comma) 1x, b.jpg'), ['a.jpg', 'b.jpg']);
    assert.deepEqual(srcsetUrls(' , ,'), []);
  });
});
