/**
 * Rules about counts and lengths, on documents built in the test (a fixture of 1,001 images or
 * news entries would be unreadable), plus the pure helpers behind hreflang and duplicates.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateSitemap, validateSources } from '../../src/validate/index.js';
import { BUDGET_SPENT, twinKey, UrlRegistry, type Repeat } from '../../src/validate/duplicates.js';
import { HreflangGraph } from '../../src/validate/hreflang.js';
import { describe, positionOf } from './expect.js';

const NOW = new Date('2024-05-02T12:00:00Z');
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

async function check(text: string) {
  return validateSitemap({ name: 'built.xml', input: { text } }, { now: NOW });
}

test('IMG-002: more than 1,000 images on one URL is an error at the 1,001st image; 1,000 is fine', async () => {
  const build = (n: number) =>
    `${HEAD} xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n<url>\n<loc>https://www.example.com/gallery</loc>\n${Array.from(
      { length: n },
      (_, i) => `<image:image><image:loc>https://www.example.com/i/${i}.jpg</image:loc></image:image>`,
    ).join('\n')}\n</url>\n</urlset>\n`;
  const over = build(1001);
  const result = await check(over);
  const found = result.diagnostics.filter((d) => d.code === 'IMG-002');
  assert.equal(found.length, 1, describe(result.diagnostics));
  assert.equal(found[0]!.severity, 'error');
  assert.deepEqual(
    { line: found[0]!.line, column: found[0]!.column },
    positionOf(over, '<image:image><image:loc>https://www.example.com/i/1000.jpg'),
    'at the 1,001st <image:image>',
  );
  assert.equal((await check(build(1000))).diagnostics.length, 0);
});

test('VID-002: a description over 2,048 characters and a title over 100 are errors; the limits themselves pass', async () => {
  const build = (title: string, description: string) =>
    `${HEAD} xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">\n<url>\n<loc>https://www.example.com/v</loc>\n<video:video>\n<video:thumbnail_loc>https://www.example.com/t.jpg</video:thumbnail_loc>\n<video:title>${title}</video:title>\n<video:description><![CDATA[${description}]]></video:description>\n<video:content_loc>https://www.example.com/v.mp4</video:content_loc>\n</video:video>\n</url>\n</urlset>\n`;
  const long = build('T'.repeat(101), 'd'.repeat(2049));
  const result = await check(long);
  const found = result.diagnostics.filter((d) => d.code === 'VID-002');
  assert.equal(found.length, 2, describe(result.diagnostics));
  assert.ok(found.every((d) => d.severity === 'error' && d.url === 'https://www.example.com/v'));
  assert.deepEqual(
    found.map((d) => d.line).sort(),
    [positionOf(long, 'TTT').line, positionOf(long, '<![CDATA[').line].sort(),
  );
  assert.equal((await check(build('T'.repeat(100), 'd'.repeat(2048)))).diagnostics.length, 0);
});

test('NEWS-002: more than 1,000 news entries in one sitemap is reported once, at the 1,001st', async () => {
  const entry = (i: number) =>
    `<url><loc>https://www.example.com/n/${i}</loc><news:news><news:publication><news:name>The Example Times</news:name><news:language>en</news:language></news:publication><news:publication_date>2024-05-02</news:publication_date><news:title>Story ${i}</news:title></news:news></url>`;
  const text = `${HEAD} xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">\n${Array.from({ length: 1002 }, (_, i) => entry(i)).join('\n')}\n</urlset>\n`;
  const result = await check(text);
  const found = result.diagnostics.filter((d) => d.code === 'NEWS-002');
  assert.equal(found.length, 1, describe(result.diagnostics.slice(0, 5)));
  assert.equal(found[0]!.severity, 'error');
  assert.equal(found[0]!.url, 'https://www.example.com/n/1000');
  assert.equal(found[0]!.line, 1003);
  assert.equal(
    result.diagnostics.filter((d) => d.code === 'DATE-006').length,
    0,
    'news sitemaps skip the stamping heuristic',
  );
});

test('DATE-006 needs at least 20 dated URLs and a 90% share of one day', async () => {
  const build = (sameDay: number, otherDays: number) =>
    `${HEAD}>\n${[
      ...Array.from(
        { length: sameDay },
        (_, i) => `<url><loc>https://www.example.com/s/${i}</loc><lastmod>2024-05-01</lastmod></url>`,
      ),
      ...Array.from(
        { length: otherDays },
        (_, i) => `<url><loc>https://www.example.com/o/${i}</loc><lastmod>2023-0${(i % 9) + 1}-10</lastmod></url>`,
      ),
    ].join('\n')}\n</urlset>\n`;
  const codes = async (text: string) => (await check(text)).diagnostics.map((d) => d.code);
  assert.deepEqual(await codes(build(19, 0)), [], 'too few to judge');
  assert.deepEqual(await codes(build(18, 2)), ['DATE-006'], '90% of 20');
  assert.deepEqual(await codes(build(17, 3)), [], '85% is not build-time stamping');
});

test('the URL set tells duplicates from http/https and www twins, across sources', () => {
  assert.equal(twinKey('https://www.Example.com/a?b=1'), 'example.com/a?b=1');
  assert.equal(twinKey('http://example.com/a?b=1'), 'example.com/a?b=1');
  assert.notEqual(twinKey('https://example.com/A'), twinKey('https://example.com/a'), 'paths keep their case');
  const registry = new UrlRegistry();
  const repeatOf = (loc: string, source: string, line: number): Repeat => {
    const repeat = registry.add(loc, source, { line, column: 5 });
    assert.ok(repeat !== undefined && repeat !== BUDGET_SPENT, loc);
    return repeat;
  };
  assert.equal(registry.add('https://www.example.com/a', 'one.xml', { line: 3, column: 5 }), undefined);
  assert.equal(repeatOf('https://www.example.com/a', 'one.xml', 9).where, 'line 3');
  const twin = repeatOf('http://example.com/a', 'two.xml', 4);
  assert.deepEqual(
    [twin.kind, twin.where, twin.first.loc],
    ['twin', 'one.xml:3', 'https://www.example.com/a'],
    'the first URL is rebuilt from its prefix and the key',
  );
  assert.equal(registry.add('https://www.EXAMPLE.com/b', 'one.xml', { line: 5, column: 5 }), undefined);
  assert.equal(repeatOf('https://www.EXAMPLE.com/b', 'one.xml', 6).kind, 'duplicate');
  assert.equal(repeatOf('https://www.example.com/b', 'one.xml', 7).kind, 'twin', 'the host spelt otherwise');
  assert.equal(registry.has('https://www.example.com/a'), true);
  assert.equal(registry.has('http://example.com/a'), false, 'a twin is not the same URL');
  assert.equal(registry.has('https://www.example.com/c'), false);
});

test('the URL set finds every URL it was given, and no other, after growing in place many times', () => {
  const registry = new UrlRegistry();
  const loc = (i: number) => `https://www.example.com/${(i * 2654435761) % 1_000_003}/${i}`;
  const count = 300_000;
  for (let i = 0; i < count; i++) assert.equal(registry.add(loc(i), 'a.xml', { line: i + 1, column: 1 }), undefined);
  assert.equal(registry.size, count);
  for (let i = 0; i < count; i++) {
    const repeat = registry.add(loc(i), 'a.xml', { line: 1, column: 1 });
    if (repeat === undefined || repeat === BUDGET_SPENT || repeat.first.line !== i + 1)
      assert.fail(`${loc(i)} was not found where it was first met (line ${i + 1}): ${JSON.stringify(repeat)}`);
  }
  for (let i = count; i < count + 1000; i++) assert.equal(registry.has(loc(i)), false);
});

test('the URL set remembers up to its budget, says so once, and still finds repeats of what it holds', () => {
  const registry = new UrlRegistry(1000);
  for (let i = 0; i < 1000; i++)
    assert.equal(registry.add(`https://www.example.com/${i}`, 'a.xml', { line: i + 1, column: 1 }), undefined);
  assert.equal(registry.add('https://www.example.com/new', 'a.xml', { line: 1001, column: 1 }), BUDGET_SPENT);
  assert.equal(registry.add('https://www.example.com/newer', 'a.xml', { line: 1002, column: 1 }), undefined);
  assert.equal(registry.size, 1000);
  const repeat = registry.add('https://www.example.com/999', 'a.xml', { line: 1003, column: 1 });
  assert.ok(repeat !== undefined && repeat !== BUDGET_SPENT);
  assert.equal(repeat.where, 'line 1000');
  assert.equal(
    new UrlRegistry(Number.MAX_SAFE_INTEGER).add('https://a.example/', 'a', { line: 1, column: 1 }),
    undefined,
  );
});

test('the hreflang clusters stay within their budget and say so once (LIMIT-004)', () => {
  const graph = new HreflangGraph(2000);
  const located = (i: number) => ({
    entry: {
      kind: 'url' as const,
      loc: `https://www.example.com/${i}`,
      alternates: [{ hreflang: 'en', href: `https://www.example.com/${i}` }],
    },
    location: { line: i, column: 1, fields: {} },
  });
  const answers = Array.from({ length: 20 }, (_, i) => graph.add(located(i), 0));
  const spent = answers.indexOf(BUDGET_SPENT);
  assert.ok(spent > 5, `${spent} clusters fit in 2,000 bytes`);
  assert.deepEqual(answers.slice(spent + 1), Array(20 - spent - 1).fill(undefined), 'said once');
});

test('thousands of hreflang clusters across two files: each broken pair is reported once, at its URL and line', async () => {
  const site = 'https://www.example.com';
  const pairs = 3000; // 6,000 clusters: past the first tables and text packs of the graph
  const noReturn = (i: number) => i % 101 === 0; // de/i names only itself
  const stale = (i: number) => i % 103 === 0 && !noReturn(i); // en/i names a de/ page listed nowhere
  const bare = (i: number) => i % 107 === 0 && !noReturn(i) && !stale(i); // en/i has no hreflang links
  const link = (lang: string, href: string) => `<xhtml:link rel="alternate" hreflang="${lang}" href="${href}"/>`;
  const document = (lines: string[]) =>
    `${HEAD} xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${lines.join('\n')}\n</urlset>\n`;
  const en = (i: number) => `${site}/en/${i}`;
  const de = (i: number) => `${site}/de/${i}`;
  const enLines = Array.from({ length: pairs }, (_, i) =>
    bare(i)
      ? `<url><loc>${en(i)}</loc></url>`
      : `<url><loc>${en(i)}</loc>${link('en', en(i))}${link('de', stale(i) ? `${site}/de-old/${i}` : de(i))}</url>`,
  );
  const deLines = Array.from(
    { length: pairs },
    (_, i) => `<url><loc>${de(i)}</loc>${link('de', de(i))}${noReturn(i) ? '' : link('en', en(i))}</url>`,
  );
  const results = await validateSources(
    [
      { name: 'en.xml', input: { text: document(enLines) } },
      { name: 'de.xml', input: { text: document(deLines) } },
    ],
    { now: NOW },
  );
  const found = results
    .flatMap((result) => result.diagnostics.map((d) => ({ ...d, source: result.source })))
    .filter((d) => d.code === 'HREF-004' || d.code === 'HREF-005')
    .map((d) => `${d.code} ${d.severity} ${d.source}:${d.line} ${d.url}`)
    .sort();
  // Line 3 holds the first <url>: the XML declaration and <urlset> come first.
  const expected: string[] = [];
  for (let i = 0; i < pairs; i++) {
    if (noReturn(i)) expected.push(`HREF-004 warning en.xml:${i + 3} ${en(i)}`);
    if (stale(i))
      expected.push(`HREF-005 warning en.xml:${i + 3} ${en(i)}`, `HREF-004 warning de.xml:${i + 3} ${de(i)}`);
    if (bare(i)) expected.push(`HREF-004 warning de.xml:${i + 3} ${de(i)}`);
  }
  assert.deepEqual(found, expected.sort());
  assert.ok(expected.length > 80, `${expected.length} broken pairs checked`);
});
