/** Bad input never crashes the validator: random bytes and mangled sitemaps always give a result. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { validateSitemap } from '../../src/validate/index.js';

const CLEAN = readFileSync(fileURLToPath(new URL('./fixtures/rules/clean.xml', import.meta.url)), 'utf8');

test('random bytes yield a result, never an exception', async () => {
  await fc.assert(
    fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 300 }), async (bytes) => {
      const result = await validateSitemap(
        { name: 'random', input: bytes },
        { location: 'https://www.example.com/sitemap.xml' },
      );
      assert.equal(result.source, 'random');
      assert.equal(result.valid, result.errors === 0);
      // Random bytes are never a valid sitemap: there is always an error, and it is given.
      assert.ok(result.errors > 0, 'random bytes are never a valid sitemap');
      assert.equal(result.errors, result.diagnostics.filter((d) => d.severity === 'error').length);
    }),
    { numRuns: 150 },
  );
});

test('a clean sitemap with a slice replaced by a few characters still yields a result', async () => {
  await fc.assert(
    fc.asyncProperty(fc.nat(CLEAN.length), fc.nat(200), fc.string({ maxLength: 5 }), async (at, length, insert) => {
      const text = CLEAN.slice(0, at) + insert + CLEAN.slice(Math.min(CLEAN.length, at + length));
      const result = await validateSitemap(
        { name: 'mangled', input: { text } },
        { location: 'https://www.example.com/sitemap.xml', now: new Date('2024-05-02T12:00:00Z') },
      );
      for (const d of result.diagnostics) {
        assert.ok(
          d.code && d.message && d.source === 'mangled',
          'every diagnostic has a code, a message and its source',
        );
        assert.ok(
          d.line === undefined || (d.line >= 1 && (d.column ?? 1) >= 1),
          `${d.code} at ${d.line}:${d.column}: positions are 1-based`,
        );
      }
      assert.equal(result.valid, result.errors === 0);
      // The counts are those of the diagnostics given, so the checks above ran on every problem found.
      assert.equal(result.errors, result.diagnostics.filter((d) => d.severity === 'error').length);
      assert.equal(result.warnings, result.diagnostics.filter((d) => d.severity === 'warning').length);
    }),
    { numRuns: 150 },
  );
});

/** A case the property above found (an unquoted attribute value once gave a negative column). */
test('positions stay 1-based on a mangled attribute', async () => {
  const text = `${CLEAN.slice(0, 1672)}(&${CLEAN.slice(1723)}`;
  const result = await validateSitemap({ name: 'mangled', input: { text } }, { now: new Date('2024-05-02T12:00:00Z') });
  assert.deepEqual(
    result.diagnostics.map((d) => `${d.code}@${d.line}:${d.column}`),
    ['XML-001@31:7', 'XML-005@31:29', 'XML-001@34:5', 'XML-010@31:7', 'URL-001@31:7'],
  );
});
