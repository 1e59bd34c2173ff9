import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { loadReferenceDecoder, scanPageHead } from '../../src/html/head-scanner.js';
import { readPageHead } from '../../src/html/page-head.js';

// Character references are decoded by htmlparser2, loaded on first need (head-scanner-lazy.test.ts).
await loadReferenceDecoder();

const PAGE_URL = 'https://www.example.com/blog/post.html';

/** The fast scanner must answer what htmlparser2's reader answers when it reads no body. */
async function assertSameAsParser(chunks: (string | Uint8Array)[], message?: string): Promise<void> {
  assert.deepEqual(scanPageHead(chunks, PAGE_URL), await readPageHead(chunks, PAGE_URL), message);
}

const CASES: Record<string, string> = {
  'directives, canonicals and base':
    '<!doctype html><html><head><base href="/articles/"><meta name="GoogleBot" content="max-snippet:20, NOINDEX">' +
    '<meta name="otherbot" content="nofollow"><link rel="Canonical" href="post#comments">' +
    '<link rel="alternate canonical" href="https://www.example.com/articles/post"><link rel="canonical" href="  /elsewhere?id=1 ">' +
    '</head><body></body></html>',
  'unquoted and upper-case': '<HTML LANG=de><HEAD><META content=none NAME=robots><LINK REL=canonical HREF=/x/></HEAD>',
  'hreflang and dates':
    '<head><link rel="alternate" hreflang="de" href="/de/post.html"><link rel="alternate" hreflang="de" href="/de/post.html#x">' +
    '<link rel="alternate" type="application/rss+xml" href="/feed"><link rel="alternate" hreflang=" x-default " href="post.html">' +
    '<meta property="article:modified_time" content="2024-05-01T10:00:00+02:00"><meta property="og:updated_time" content="1999-01-01">' +
    '</head><body><link rel="alternate" hreflang="fr" href="/fr/"></body>',
  'JSON-LD in the head, a broken block skipped':
    '<head><script type="application/ld+json">{"dateModified": </script>' +
    '<script type="application/ld+json; charset=utf-8">[{"dateModified":"2024-02-01"}]</script></head>',
  'entities in attributes and the title':
    '<html lang="en"><head><title>Tom &amp; Jerry &copy 2024 &#x27;quoted&#39; &notanentity; a&ampb</title>' +
    `<link rel="canonical" href="/search?q=a&amp;page=2&copy=3"><link rel=alternate hreflang=fr href='/fr/?a=1&amp;b="2"'>` +
    '<meta http-equiv="refresh" content="0;URL=&quot;/moved?x=1&amp;y=2&quot;"></head>',
  'markup that is not a tag':
    '<head><!-- </head><body> --><!--><!--->< notatag <3 <?xml x?><![CDATA[ </head> ]]>' +
    '<title>a < b</title><meta name=robots content=noindex></head>',
  'script and style hide tags':
    '<head><script>var s = "</head><body><meta name=robots content=noindex>"; location.href = "/next";</script>' +
    '<style>body::after { content: "</head>" }</style><script src="/a.js"></script></head><body>',
  'a meta refresh inside noscript counts for nothing':
    '<head><noscript><meta http-equiv="refresh" content="0; url=/nojs"></noscript>' +
    '<meta http-equiv="Refresh" content="3; url=\'/later\'"></head>',
  'first attribute of a name wins': '<head><link href="/first" rel="canonical" href="/second"></head>',
  '</head> without <head> does not end it': '<meta name="robots" content="noindex"></head><link rel=canonical href=/a>',
  'no end of the head: the whole document read': '<title>Only a title</title><meta name="robots" content="nofollow">',
  'an h1 in the head, closed by the next heading': '<head><h1>Page &amp; <b>not</b> found<h2>x</h2></head><body>',
  'self-closing tags and slashes':
    '<head><meta/name="robots"/content="noindex"/><link rel="canonical" href="/c"/></head>',
  'a title in the body is not the title': '<head></head><body><title>Body</title>',
  'an unterminated script runs to the end': '<head><script>location.replace("/gone")',
  'an empty title': '<head><title>  </title><title>second</title></head>',
  'a second html lang': '<html><html lang=" nl "><head></head>',
  'a meta inside a comment counts for nothing':
    '<head><!-- <meta name="robots" content="noindex"> <link rel=canonical href=/c> --><title>Kept</title></head>',
  'a > inside a quoted value of a tag that is not read':
    '<head><link rel="preload" href="/a.js" as="script" data-x="a>b<meta name=robots content=noindex>"></head>',
  'upper-case attribute names, the first of each kept':
    '<HEAD><Meta Content="noindex" NAME="ROBOTS" name="other"><LINK HREF="/x" Rel="Canonical" HREF="/y"></HEAD>',
  'attributes across lines, values without quotes':
    '<head>\n<meta\n  name=robots\n\tcontent=noindex,nofollow\n><link rel=alternate hreflang=de\nhref=/de/></head>',
  'non-ASCII capitals in tag and attribute names lower-cased as the parser does':
    '<head><dÄ><h1>A</dä>b</h1><lin\u212a rel=canonical href=/kelvin><META NAMÉ=x name=robots content=noindex></head>',
  'end tag spellings':
    '<head><title>x</TITLE ><script>1</script foo="</head>"></head  ><meta name=robots content=noindex>',
};

for (const [name, html] of Object.entries(CASES)) {
  test(`the head scanner reads as htmlparser2: ${name}`, async () => {
    await assertSameAsParser([html]);
    // Cut anywhere, in text and in bytes (inside a tag, a reference, a UTF-8 character).
    const bytes = Buffer.from(html);
    for (let cut = 1; cut < html.length; cut++) {
      await assertSameAsParser([html.slice(0, cut), html.slice(cut)], `${name}, text cut at ${cut}`);
      await assertSameAsParser([bytes.subarray(0, cut), bytes.subarray(cut)], `${name}, bytes cut at ${cut}`);
    }
  });
}

test('the head scanner decodes bytes as the parser does: a byte order mark, bad bytes, a long head', async () => {
  const documents = [
    Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('<title>Marked é</title><meta name=robots content=noindex>'),
    ]),
    Buffer.concat([
      Buffer.from('<head><title>bad '),
      Buffer.from([0xff, 0xc3, 0x28, 0xe2, 0x82]),
      Buffer.from(' é</title></head>'),
    ]),
    // Longer than a decoding step, with a `</head>` in a script before the real one (and past the first step).
    Buffer.from(
      `<head><script>var a = "</head>";</script><title>é ${'x'.repeat(5000)}</title><meta name=robots content=noindex></head><body>`,
    ),
  ];
  for (const bytes of documents) {
    await assertSameAsParser([bytes]);
    for (let cut = 1; cut < bytes.length; cut += cut < 40 ? 1 : 997) {
      const message = `${bytes.subarray(0, 24).toString()}…, bytes cut at ${cut}`;
      await assertSameAsParser([bytes.subarray(0, cut), bytes.subarray(cut)], message);
      // Plain Uint8Arrays too, as fetch bodies are.
      await assertSameAsParser([new Uint8Array(bytes.subarray(0, cut)), new Uint8Array(bytes.subarray(cut))], message);
    }
  }
});

test('the head scanner answers what the parser answers on heads made of any mix of the tags that matter', async () => {
  const piece = fc.constantFrom(
    '<html lang="en">',
    '<head>',
    '</head>',
    '<body>',
    '<meta name="robots" content="noindex, nofollow">',
    '<meta name=googlebot content=none>',
    '<meta property="article:modified_time" content=" 2024-01-02 ">',
    '<meta http-equiv="refresh" content="0; url=/a?x=1&amp;y=2">',
    '<meta http-equiv=refresh content=5>',
    '<noscript>',
    '</noscript>',
    '<link rel="canonical" href="/c#frag">',
    '<link rel=alternate hreflang=de href=/de/>',
    "<link rel='alternate' hreflang='x-default' href='&#47;x'>",
    '<base href="/base/">',
    '<title>T &amp; t</title>',
    '<h1>H</h1>',
    '<script>location = "/js";</script>',
    '<script type="application/ld+json">{"dateModified":"2023-05-06"}</script>',
    '<style>a{}</style>',
    '<!-- <body> -->',
    '<p>words</p>',
    '<h2>',
    '</h1>',
    '<div>',
    '<script>',
    '</script>',
    '<title>',
    '</title>',
    ' text ',
    '&amp;',
    '<',
    '>',
    '"',
  );
  await fc.assert(
    fc.asyncProperty(fc.array(piece, { maxLength: 14 }), fc.nat(), async (pieces, cutSeed) => {
      const html = pieces.join('');
      const cut = html.length === 0 ? 0 : cutSeed % html.length;
      await assertSameAsParser([html.slice(0, cut), html.slice(cut)], html);
    }),
    { numRuns: 2000 },
  );
});

test('the head scanner stops at the end of the head: it never asks for what follows', () => {
  function* chunks(): Generator<string> {
    yield '<html><head><meta name="robots" content="index"></head><bo';
    throw new Error('the scanner went on past </head>');
  }
  assert.deepEqual(scanPageHead(chunks(), PAGE_URL).directives, { noindex: false, nofollow: false });
});
