import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeXml, hasForbiddenXmlChar, stripForbiddenXmlChars } from '../../src/core/xml.js';
import { RULES } from '../../src/core/catalog.js';
import { diagnostic, formatDiagnostic } from '../../src/core/diagnostics.js';

test('the five XML entities are escaped', () => {
  assert.equal(escapeXml(`a&b<c>d"e'f`), 'a&amp;b&lt;c&gt;d&quot;e&apos;f');
  assert.equal(escapeXml('plain text'), 'plain text');
});

test('characters XML 1.0 forbids are removed; tab, LF, CR and astral characters stay', () => {
  assert.equal(escapeXml('a\u0000b\u0008c\u000bd\ufffee'), 'abcde');
  assert.equal(escapeXml('t\tn\nr\r'), 't\tn\nr\r');
  assert.equal(escapeXml('emoji 😀 ok'), 'emoji 😀 ok');
  assert.equal(escapeXml('lone \ud800 high'), 'lone  high');
  assert.equal(escapeXml('lone \udc00 low'), 'lone  low');
  assert.equal(stripForbiddenXmlChars('&amp;\u0001'), '&amp;');
  assert.ok(hasForbiddenXmlChar('x\u0002'));
  assert.ok(!hasForbiddenXmlChar('x'));
  assert.ok(!hasForbiddenXmlChar('x'), 'repeated calls give the same answer');
});

test('diagnostics take their severity from the catalog and print as source:line:column', () => {
  const d = diagnostic('DATE-001', 'bad date', {
    line: 3,
    column: 7,
    url: 'https://example.com/a',
    source: 'sitemap.xml',
  });
  assert.equal(d.severity, RULES['DATE-001']!.severity);
  assert.equal(formatDiagnostic(d), 'sitemap.xml:3:7: error DATE-001 bad date (https://example.com/a)');
  assert.equal(diagnostic('URL-004', 'x', { severity: 'warning' }).severity, 'warning');
  assert.throws(() => diagnostic('NOPE-999', 'x'), /unknown diagnostic code/);
});
