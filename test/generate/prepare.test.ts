import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prepareEntry, type PrepareContext } from '../../src/generate/index.js';
import { BASE_URL, FULL_ENTRY } from './entries.js';

const context: PrepareContext = { baseUrl: BASE_URL, allowOtherHosts: false };

function problemOf(raw: unknown, ctx = context): { code: string; message: string } {
  const result = prepareEntry(raw, ctx);
  assert.equal(result.ok, false, `expected a problem for ${JSON.stringify(raw)}`);
  return (result as { problem: { code: string; message: string } }).problem;
}

function entryOf(raw: unknown, ctx = context) {
  const result = prepareEntry(raw, ctx);
  assert.ok(result.ok, JSON.stringify(result));
  return result.entry;
}

test('relative URLs resolve against the base; spaces and non-ASCII are percent-encoded, IDN hosts punycoded', () => {
  assert.equal(entryOf({ loc: '/stores/zürich/' }).loc, 'https://www.example.com/stores/z%C3%BCrich/');
  assert.equal(
    entryOf({ loc: 'help/returns & exchanges' }).loc,
    'https://www.example.com/help/returns%20&%20exchanges',
  );
  assert.equal(entryOf({ loc: 'https://www.example.com/a|b^c' }).loc, 'https://www.example.com/a%7Cb%5Ec');
  assert.equal(
    entryOf({ loc: 'https://bücher.example/x' }, { ...context, allowOtherHosts: true }).loc,
    'https://xn--bcher-kva.example/x',
  );
});

test('URLs on another host, or outside the base directory, are refused unless other hosts are allowed', () => {
  assert.equal(problemOf({ loc: 'https://other.example.com/a' }).code, 'URL-004');
  assert.equal(problemOf({ loc: 'http://www.example.com/a' }).code, 'URL-004', 'another scheme is another site');
  assert.equal(
    problemOf(
      { loc: 'https://www.example.com/a' },
      { baseUrl: 'https://www.example.com/blog/', allowOtherHosts: false },
    ).code,
    'URL-005',
  );
  assert.equal(
    entryOf({ loc: 'https://other.example.com/a' }, { ...context, allowOtherHosts: true }).loc,
    'https://other.example.com/a',
  );
});

test('an entry is refused only for its loc, or for not being a url entry', () => {
  const cases: [unknown, string][] = [
    [{ loc: '' }, 'URL-001'],
    [{ loc: 'ftp://www.example.com/a' }, 'URL-001'],
    [{ loc: `${BASE_URL}${'a'.repeat(2048)}` }, 'URL-002'],
    [{ loc: `${BASE_URL}100%zz` }, 'URL-003'],
    [{ kind: 'sitemap', loc: `${BASE_URL}s.xml` }, 'INPUT-001'],
    ['https://www.example.com/a', 'INPUT-001'],
  ];
  for (const [raw, code] of cases) assert.equal(problemOf(raw).code, code, JSON.stringify(raw).slice(0, 120));
});

test('a bad field is left out with its rule, and the entry is written without it', () => {
  // Every field rule is in the shared case table (test/rules/cases.ts); this is the shape of the answer.
  const result = prepareEntry({ loc: `${BASE_URL}a`, lastmod: '21/05/2024', priority: 0.5 }, context);
  assert.ok(result.ok);
  assert.deepEqual(result.entry, { kind: 'url', loc: `${BASE_URL}a`, priority: 0.5 });
  assert.deepEqual(
    result.problems.map((p) => p.code),
    ['DATE-001'],
  );
  assert.match(result.problems[0]!.message, /^lastmod: .*; lastmod is left out$/);
  const clean = prepareEntry({ loc: `${BASE_URL}a` }, context);
  assert.ok(clean.ok);
  assert.deepEqual(clean.problems, []);
});

test('lastmod is written as given, normalised: a date stays a date; a time gets seconds; fractions are dropped', () => {
  assert.equal(entryOf({ loc: `${BASE_URL}a`, lastmod: ' 2024-05-01 ' }).lastmod, '2024-05-01');
  assert.equal(entryOf({ loc: `${BASE_URL}a`, lastmod: '2024-05' }).lastmod, '2024-05-01');
  assert.equal(
    entryOf({ loc: `${BASE_URL}a`, lastmod: '2024-05-01T10:00+02:00' }).lastmod,
    '2024-05-01T10:00:00+02:00',
  );
  assert.equal(entryOf({ loc: `${BASE_URL}a`, lastmod: '2024-05-01T10:00:59.123Z' }).lastmod, '2024-05-01T10:00:59Z');
  assert.equal(entryOf({ loc: `${BASE_URL}a` }).lastmod, undefined, 'never invented');
  const prepared = prepareEntry({ loc: `${BASE_URL}a`, lastmod: '2024-05-01T02:00:00+02:00' }, context);
  assert.ok(prepared.ok);
  assert.equal(prepared.lastmodMillis, Date.UTC(2024, 4, 1, 0, 0, 0));
});

test('lenient readings: changefreq in any case, priority as a numeric string, yes/no booleans', () => {
  const entry = entryOf({ loc: `${BASE_URL}a`, changefreq: ' Daily', priority: '0.5' });
  assert.equal(entry.changefreq, 'daily');
  assert.equal(entry.priority, 0.5);
  const video = entryOf({
    loc: `${BASE_URL}a`,
    videos: [
      {
        thumbnailLoc: '/t.jpg',
        title: 't',
        description: 'd',
        playerLoc: '/p',
        live: 'yes',
        restriction: { relationship: 'allow', countries: 'de at' },
      },
    ],
  }).videos![0]!;
  assert.equal(video.live, true);
  assert.deepEqual(video.restriction, { relationship: 'allow', countries: ['DE', 'AT'] });
  assert.equal(video.thumbnailLoc, `${BASE_URL}t.jpg`);
});

test('the full example entry passes unchanged apart from normalisation', () => {
  const entry = entryOf(FULL_ENTRY);
  assert.equal(entry.loc, FULL_ENTRY.loc);
  assert.deepEqual(entry.images, FULL_ENTRY.images);
  assert.deepEqual(entry.alternates, FULL_ENTRY.alternates);
  assert.equal(entry.videos![0]!.tags!.length, 2);
});
