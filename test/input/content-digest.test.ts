import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import { pageContentDigest } from '../../src/input/content-digest.js';
import { withoutHashedNames, withoutTimestamps } from '../../src/input/build-noise.js';
import { builtPage } from '../helpers/build-site.js';

const digest = (html: string): Promise<string> => pageContentDigest([html]);

test('two builds of the same page digest alike: scripts, styles, hashed assets, generator, build time and classes differ', async () => {
  const content = '<h1>Tents</h1><p>Our <a href="/shop/tent.html">tents</a> &amp; more.</p>';
  const first = builtPage('Tents', content, 1, new Date('2024-05-01T10:23:45Z'));
  const second = builtPage('Tents', content, 2, new Date('2024-06-02T11:00:01Z'));
  assert.notEqual(first, second);
  assert.equal(await digest(first), await digest(second));
  assert.match(await digest(first), /^[0-9a-f]{32}$/);
});

test('a change of what the page says changes the digest', async () => {
  const builtAt = new Date('2024-05-01T10:23:45Z');
  const page = (content: string) => digest(builtPage('Tents', content, 1, builtAt));
  const base = await page('<p>Our <a href="/shop/tent.html">tents</a>.</p><img src="/img/tent.jpg" alt="A tent">');
  const edits = [
    '<p>Our <a href="/shop/tent.html">tent</a>.</p><img src="/img/tent.jpg" alt="A tent">', // text
    '<p>Our <a href="/shop/tents.html">tents</a>.</p><img src="/img/tent.jpg" alt="A tent">', // link target
    '<p>Our <a href="/shop/tent.html">tents</a>.</p><img src="/img/tent.jpg" alt="Two tents">', // alt text
    '<p>Our <a href="/shop/tent.html">tents</a>.</p><img src="/img/tarp.jpg" alt="A tent">', // an image not hashed
    '<p>Our <a href="/shop/tent.html">tents</a>.</p><p><img src="/img/tent.jpg" alt="A tent"></p>', // structure
    '<p>Our <a href="/shop/tent.html">tents</a>. Open May 1, 2024 at 9:00 AM.</p><img src="/img/tent.jpg" alt="A tent">', // a date for readers
  ];
  for (const edit of edits) assert.notEqual(await page(edit), base, edit);
});

describe('what is not the page', () => {
  const cases: [string, string, string][] = [
    ['white space (a minifier)', '<p>a  b</p>\n  <p>c</p>', '<p>a b</p><p>c</p>'],
    [
      'white space of every kind, at the ends too',
      '<p>\ta\u00a0\u00a0b\r\n</p><p> c\u2003d </p>',
      '<p>a b</p><p>c d</p>',
    ],
    ['comments', '<p>a<!-- built by ci #812 --></p>', '<p>a<!-- built by ci #813 --></p>'],
    ['end tags left out (the same page)', '<ul><li>a<li>b</ul>', '<ul><li>a</li><li>b</li></ul>'],
    ['inline scripts and JSON data', '<p>a</p><script id="__NEXT_DATA__">{"buildId":"x1"}</script>', '<p>a</p>'],
    ['styles', '<style>p{margin:0}</style><p>a</p>', '<p>a</p>'],
    [
      'class, style, data- and event attributes',
      '<p class="x-1a2b" style="color:red" data-v-7ba5bd90 onclick="go()">a</p>',
      '<p>a</p>',
    ],
    ["Angular's scoped attributes", '<p _ngcontent-ng-c1234567="">a</p>', '<p>a</p>'],
    ['integrity and nonce', '<img src="/a.png" integrity="sha384-abc" nonce="r4nd0m">', '<img src="/a.png">'],
    ['the generator <meta>', '<meta name="Generator" content="Hugo 0.120.4"><p>a</p>', '<p>a</p>'],
    [
      'style sheets, preloads, icons',
      '<link rel="stylesheet" href="/s.css"><link rel="preload" href="/f.woff2"><p>a</p>',
      '<p>a</p>',
    ],
    [
      'webpack asset hashes',
      '<img src="/static/media/hero.3f2a9c1b.jpg">',
      '<img src="/static/media/hero.77e0d4aa.jpg">',
    ],
    [
      'Vite asset hashes, hyphens inside',
      '<img src="/assets/hero-D_bEq4Xs.png">',
      '<img src="/assets/hero-Ab-cdEf9.png">',
    ],
    [
      'Gatsby asset hashes',
      '<img src="/static/hero-4f5a3c2b1d0e9f8a7b6c.png">',
      '<img src="/static/hero-0a1b2c3d4e5f6a7b8c9d.png">',
    ],
    [
      'Next.js build ids',
      '<img src="/_next/static/Xk3qPz8LmNa21bCdEf0gH/media/hero.png">',
      '<img src="/_next/static/Qw7Rt2yUi9oPaS4dF6gHj/media/hero.png">',
    ],
    ['cache-busting queries', '<img src="/img/hero.png?v=1714550400">', '<img src="/img/hero.png?v=1717329601">'],
    [
      'hashed names in srcset',
      '<img srcset="/a.1a2b3c4d.png 1x, /a.5e6f7a8b.png 2x">',
      '<img srcset="/a.9c8d7e6f.png 1x, /a.0a1b2c3d.png 2x">',
    ],
    [
      'hashed names in <meta> images',
      '<meta property="og:image" content="https://x.com/_astro/og.BkX3a9Qz.png">',
      '<meta property="og:image" content="https://x.com/_astro/og.Zq7Wm2Lp.png">',
    ],
    ['a build time in ISO 8601', '<p>Built 2024-05-01T10:23:45.123Z</p>', '<p>Built 2024-06-01T08:00:00.001Z</p>'],
    [
      'a build time from Date.toString()',
      '<p>Built Wed May 01 2024 10:23:45 GMT+0000 (Coordinated Universal Time)</p>',
      '<p>Built Sat Jun 01 2024 08:00:00 GMT+0000 (Coordinated Universal Time)</p>',
    ],
    [
      'a build time in a <time> attribute',
      '<time datetime="2024-05-01T10:23:45Z">now</time>',
      '<time datetime="2024-06-01T08:00:00Z">now</time>',
    ],
  ];
  for (const [what, a, b] of cases) {
    it(`leaves out ${what}`, async () => {
      assert.equal(await digest(a), await digest(b));
    });
  }
});

test('a page read in chunks cut anywhere digests as it does whole', async () => {
  const page = builtPage('T', '<p>Grüße aus Zürich: 2024-05-01 10:23:45 UTC</p>'.repeat(50), 3, new Date(0));
  const bytes = Buffer.from(page);
  const whole = await digest(page);
  for (const size of [1, 7, 64, 1000]) {
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
    assert.equal(await pageContentDigest(chunks), whole, `chunks of ${size}`);
  }
});

test('asset names: hashes go, names and page links stay', () => {
  const cases: [string, string][] = [
    ['main.3f2a9c1b.js', 'main.#.js'],
    ['/assets/index-D_bEq4Xs.css', '/assets/index-#.css'],
    ['/app.3f2a9c1b.js.map', '/app.#.js.map'],
    ['https://cdn.example.com/app-4f5a3c2b1d0e9f8a7b6c.js?v=2', 'https://cdn.example.com/app-#.js'],
    ['/release-notes-2024.pdf', '/release-notes-2024.pdf'],
    ['/img/team-photograph.jpg', '/img/team-photograph.jpg'],
    ['/img/photo-2024-05-01.jpg', '/img/photo-2024-05-01.jpg'],
    ['/blog/post-2024-05-01-12345678.html', '/blog/post-2024-05-01-12345678.html'],
    ['/search?q=abc12345678', '/search?q=abc12345678'],
    ['data:image/png;base64,iVBORw0KGgo', 'data:image/png;base64,iVBORw0KGgo'],
  ];
  for (const [url, expected] of cases) assert.equal(withoutHashedNames(url), expected, url);
});

test('timestamps: a date with a time to the second goes; dates and times for readers stay', () => {
  assert.equal(withoutTimestamps('Built Wed, 01 May 2024 10:23:45 GMT.'), 'Built .');
  assert.equal(withoutTimestamps('at 2024-05-01 10:23:45 +0000 by CI'), 'at  by CI');
  assert.equal(withoutTimestamps('01.05.2024 10:23:45 CEST'), '');
  assert.equal(withoutTimestamps('May 1, 2024, 10:23:45 AM'), '');
  for (const kept of ['Posted 2024-05-01', 'Doors open May 1, 2024 at 9:00 AM', 'Runtime 1:02:33'])
    assert.equal(withoutTimestamps(kept), kept);
});
