/** The field checkers of core/rules on their own: what each accepts, repairs and refuses. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { normaliseUrl } from '../../src/core/url.js';
import {
  alternatesProblems,
  hreflangProblem,
  isCountryCode,
  isLanguageCode,
  readChangefreq,
  readCountries,
  readNewsLanguage,
  readPriority,
  readUrl,
} from '../../src/core/rules/index.js';
import { decimalNumber } from '../../src/core/rules/core-fields.js';

const BASE = 'https://www.example.com/';

test('the ISO tables: 184 ISO 639-1 languages (bh, withdrawn, still read) and 249 ISO 3166-1 alpha-2 countries, in any case', () => {
  const letters = 'abcdefghijklmnopqrstuvwxyz'.split('');
  const pairs = letters.flatMap((a) => letters.map((b) => a + b));
  assert.equal(pairs.filter(isLanguageCode).length, 184);
  assert.equal(pairs.filter(isCountryCode).length, 249);
  assert.ok(isLanguageCode('EN') && isCountryCode('gb'));
  assert.ok(!isLanguageCode('qq') && !isCountryCode('zz') && !isCountryCode('uk'));
});

test('hreflang values: ISO 639-1 language, optional script and ISO 3166-1 region, or x-default', () => {
  for (const good of ['en', 'de-DE', 'en-gb', 'zh-Hant', 'zh-Hant-TW', 'zh-TW', 'x-default', 'X-Default']) {
    assert.equal(hreflangProblem(good), undefined, good);
  }
  const bad: [string, RegExp][] = [
    ['en-UK', /GB/],
    ['GB', /region without a language/],
    ['english', /not a language code/],
    ['xx', /not an ISO 639-1/],
    ['xx-ZZ', /not an ISO 639-1/],
    ['en-XY', /not an ISO 3166-1/],
    ['es-419', /not an ISO 3166-1/], // Google reads alpha-2 regions only, not UN M.49 numbers
    ['en_US', /not a language code/],
  ];
  for (const [value, why] of bad) assert.match(hreflangProblem(value) ?? '', why, value);
});

test('alternates together: the URL lists itself (HREF-003) and one language names one URL (HREF-005)', () => {
  const loc = `${BASE}a`;
  assert.deepEqual(alternatesProblems(loc, [{ hreflang: 'en', href: loc }]), []);
  assert.deepEqual(
    alternatesProblems(loc, [{ hreflang: 'de', href: `${BASE}de` }]).map((p) => [p.code, p.path]),
    [['HREF-003', 'alternates.0']],
  );
  assert.deepEqual(
    alternatesProblems(loc, [
      { hreflang: 'en', href: loc },
      { hreflang: 'EN', href: `${BASE}en` },
    ]).map((p) => [p.code, p.path]),
    [['HREF-005', 'alternates.1']],
  );
  // A long list is checked through a map rather than pairwise: the same answers.
  const languages = Array.from(
    { length: 40 },
    (_, i) => `${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`,
  );
  const many = [
    { hreflang: 'en', href: loc },
    ...languages.map((hreflang) => ({ hreflang, href: `${BASE}${hreflang}` })),
  ];
  assert.deepEqual(alternatesProblems(loc, many), []);
  assert.deepEqual(
    alternatesProblems(loc, [
      ...many,
      { hreflang: 'Aa', href: `${BASE}other` },
      { hreflang: 'bA', href: `${BASE}ba` },
    ]).map((p) => [p.code, p.path]),
    [['HREF-005', 'alternates.41']],
  );
});

test('news language: ISO 639-1 pairs, three letters, zh-cn and zh-tw; upper case is repaired with a warning', () => {
  for (const good of ['en', 'haw', 'zh-cn', 'zh-tw'])
    assert.deepEqual(readNewsLanguage(good), { value: good, problems: [] });
  for (const bad of ['qq', 'english', 'zh-hk', 'e']) assert.equal(readNewsLanguage(bad).value, undefined, bad);
  const upper = readNewsLanguage('EN');
  assert.equal(upper.value, 'en');
  assert.deepEqual(
    upper.problems.map((p) => [p.code, p.severity]),
    [['NEWS-005', 'warning']],
  );
});

test('restriction countries: upper case ISO codes; an unknown code refuses the restriction', () => {
  assert.deepEqual(readCountries(['GB', 'US']).value, ['GB', 'US']);
  assert.deepEqual(readCountries(['gb']).value, ['GB']);
  assert.equal(readCountries(['gb']).problems[0]?.severity, 'warning');
  assert.equal(readCountries(['GB', 'ZZ']).value, undefined);
  assert.equal(readCountries(['GB', 'USA']).problems[0]?.code, 'VID-007');
});

test('changefreq and priority: the case is repaired with FREQ-001; priority is a decimal in 0..1', () => {
  assert.deepEqual(readChangefreq('daily'), { value: 'daily', problems: [] });
  assert.equal(readChangefreq('Daily').value, 'daily');
  assert.equal(readChangefreq('Daily').problems[0]?.code, 'FREQ-001');
  assert.equal(readChangefreq('fortnightly').value, undefined);
  for (const good of ['0.5', '.5', '1.', '+0.3', '1', '0']) assert.notEqual(readPriority(good).value, undefined, good);
  for (const bad of ['0,5', '10', '80%', '-0.1', '1e-1', '']) assert.equal(readPriority(bad).value, undefined, bad);
});

test('a decimal is read to the very number Number() reads, to the last bit, at any length', () => {
  const digits = (max: number) => fc.array(fc.constantFrom(...'0123456789'), { maxLength: max }).map((d) => d.join(''));
  const decimal = fc
    .tuple(fc.boolean(), digits(12), fc.boolean(), digits(20))
    .map(([plus, whole, point, fraction]) => `${plus ? '+' : ''}${whole}${point ? '.' : ''}${point ? fraction : ''}`)
    .filter((text) => /\d/.test(text));
  fc.assert(
    fc.property(decimal, (text) => Object.is(decimalNumber(text), Number(text))),
    { numRuns: 20_000 },
  );
  for (const text of ['0.1', '0.3', '.7', '1.', '+0.9', '0.123456789012345', '0.1234567890123456789'])
    assert.ok(Object.is(decimalNumber(text), Number(text)), text);
});

test('URL fields as written: a page loc resolves against the base; free text in an extension is kept, never resolved', () => {
  const page = readUrl('/a b', { mode: 'as-written', field: 'page', base: BASE });
  assert.equal(page.value, `${BASE}a%20b`);
  assert.equal(page.problems[0]?.code, 'URL-001');
  for (const text of ['Free License', 'None', 'photo.jpg']) {
    const kept = readUrl(text, { mode: 'as-written', field: 'extension', base: BASE, code: 'IMG-001' });
    assert.equal(kept.value, text, 'kept as written');
    assert.deepEqual(
      kept.problems.map((p) => p.code),
      ['IMG-001'],
    );
  }
  assert.equal(readUrl('/img/a.jpg', { mode: 'as-written', field: 'extension', base: BASE }).value, `${BASE}img/a.jpg`);
  assert.equal(readUrl('/img/a.jpg', { mode: 'as-written', field: 'extension' }).value, '/img/a.jpg');
  assert.equal(readUrl('Free License', { mode: 'normalise', field: 'extension', base: BASE }).value, undefined);
  assert.equal(readUrl('mailto:a@example.com', { mode: 'as-written', field: 'page', base: BASE }).value, undefined);
  const padded = readUrl(' https://example.com/a ', { mode: 'as-written', field: 'page' });
  assert.equal(padded.value, 'https://example.com/a');
  assert.deepEqual(
    padded.problems.map((p) => [p.code, p.severity]),
    [['URL-003', 'warning']],
  );
});

test('normalising: the fast path for canonical URLs gives exactly what full URL normalisation gives', () => {
  const pathChar = fc.constantFrom(
    ..."abcXYZ019-._~!$&'()*+,;=:@/?%#[]|^ éü".split(''),
    '%2e',
    '%2E',
    '%41',
    '/./',
    '/../',
    '..',
  );
  const origin = fc.constantFrom(
    BASE,
    'http://cdn.example.net/',
    'https://EXAMPLE.com/',
    'https://127.1/',
    'https://a.b.c1/',
    'https://example.com./',
    'https://xn--bcher-kva.example/',
    'https://www.example.com:443/',
    'https://www.example.com:8080/',
    'https://ex-ample.co.uk',
    'https://0x7f.1/',
  );
  fc.assert(
    fc.property(origin, fc.array(pathChar, { maxLength: 12 }), (start, parts) => {
      const loc = start + parts.join('');
      const slow = normaliseUrl(loc);
      const fast = readUrl(loc, { mode: 'normalise', field: 'page', base: BASE });
      if (fast.value === undefined) return; // refused (bad percent-encoding): nothing to compare
      assert.ok(slow.ok);
      // Same URL as the WHATWG serialisation, with RFC 3986's leftovers (| ^ …) percent-encoded.
      assert.equal(
        fast.value,
        slow.value.replace(/[|^`{}"<>\\ ]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`),
      );
    }),
    { numRuns: 2000 },
  );
});
