import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  checkScope,
  findUrlSyntaxProblem,
  joinUrl,
  looksAbsoluteHttp,
  normaliseUrl,
  urlLengthProblem,
} from '../../src/core/url.js';
import { CONFORMANCE_DIR } from '../helpers/paths.js';

function normalised(input: string, base?: string): string {
  const result = normaliseUrl(input, base);
  assert.ok(result.ok, `${input}: ${result.ok ? '' : result.problem.message}`);
  return result.value;
}

test('spaces and non-ASCII characters are percent-encoded as UTF-8; IDN hosts become punycode', () => {
  assert.equal(normalised('https://example.com/ümlat.php?q=a b'), 'https://example.com/%C3%BCmlat.php?q=a%20b');
  assert.equal(normalised('https://bücher.example/straße'), 'https://xn--bcher-kva.example/stra%C3%9Fe');
  assert.equal(normalised('  https://example.com/a  '), 'https://example.com/a');
});

test('relative URLs resolve against a base; without one they are refused', () => {
  assert.equal(normalised('/docs/a', 'https://example.com/'), 'https://example.com/docs/a');
  const refused = normaliseUrl('/docs/a');
  assert.equal(refused.ok, false);
  if (!refused.ok) assert.equal(refused.problem.code, 'URL-001');
});

test('only http and https are listed', () => {
  for (const bad of [
    'javascript:alert(1)',
    'ftp://example.com/a',
    'file:///etc/passwd',
    'data:text/plain,hi',
    'www.example.com',
  ]) {
    const result = normaliseUrl(bad);
    assert.equal(result.ok, false, bad);
    if (!result.ok) assert.equal(result.problem.code, 'URL-001', bad);
  }
});

test('the encoded URL may not pass 2,048 characters (exactly 2,048 is only a warning, URL-002)', () => {
  const base = 'https://example.com/';
  assert.ok(normaliseUrl(base + 'a'.repeat(2048 - base.length)).ok);
  const tooLong = normaliseUrl(base + 'a'.repeat(2049 - base.length));
  assert.equal(tooLong.ok, false);
  if (!tooLong.ok) assert.equal(tooLong.problem.code, 'URL-002');
  assert.equal(urlLengthProblem(base + 'a'.repeat(2048 - base.length))?.severity, 'warning');
  assert.equal(urlLengthProblem(base + 'a'.repeat(2049 - base.length))?.severity, undefined, "the catalog's error");
});

test('syntax problems of URLs as written (URL-003)', () => {
  assert.equal(findUrlSyntaxProblem('https://example.com/a%20b'), undefined);
  for (const bad of [
    'https://example.com/a b',
    'https://example.com/ü',
    'https://example.com/a%zz',
    'https://example.com/{x}',
    'https://example.com/a|b',
  ]) {
    assert.equal(findUrlSyntaxProblem(bad)?.code, 'URL-003', bad);
  }
});

test("scope: crawler-commons' sitemap location table", () => {
  const table = JSON.parse(readFileSync(join(CONFORMANCE_DIR, 'extras/crawler-commons-location.json'), 'utf8')) as {
    cases: { sitemap_url: string; url: string; valid: boolean }[];
  };
  for (const row of table.cases) {
    assert.equal(checkScope(row.url, row.sitemap_url) === 'in-scope', row.valid, `${row.url} under ${row.sitemap_url}`);
  }
  assert.equal(checkScope('https://www.example.com/a', 'https://example.com/sitemap.xml'), 'other-host');
  assert.equal(checkScope('https://example.com/a', 'https://example.com/blog/sitemap.xml'), 'outside-directory');
});

test('joinUrl builds file URLs under a base with or without a trailing slash', () => {
  assert.equal(joinUrl('https://example.com', 'sitemap.xml'), 'https://example.com/sitemap.xml');
  assert.equal(joinUrl('https://example.com/blog', 'sitemap.xml'), 'https://example.com/blog/sitemap.xml');
  assert.equal(joinUrl('https://example.com/blog/', 'sitemap.xml'), 'https://example.com/blog/sitemap.xml');
});

test('looksAbsoluteHttp: a scheme, // and a host; paths, relative references and other schemes are not', () => {
  for (const url of [
    'https://example.com/',
    'HTTP://example.com',
    'https://*.example.com/**',
    'http://127.0.0.1:8080/a',
  ])
    assert.equal(looksAbsoluteHttp(url), true, url);
  for (const other of ['https://', 'https:///a', 'http:/example.com', '/a', 'example.com', 'ftp://example.com/', ''])
    assert.equal(looksAbsoluteHttp(other), false, other);
});
