/** Whatever the bytes, the lenient reader ends normally: entries and diagnostics, never an exception. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { NS } from '../../src/core/namespaces.js';
import { parseAll } from './helpers.js';

const token = fc.constantFrom(
  '<',
  '>',
  '</',
  '/>',
  '<?xml version="1.0"?>',
  `<urlset xmlns="${NS.sitemap}">`,
  '</urlset>',
  '<url>',
  '</url>',
  '<loc>',
  '</loc>',
  'https://example.com/',
  '&',
  '&amp;',
  '&#x;',
  '&#0;',
  '&unknown;',
  '<![CDATA[',
  ']]>',
  '<!--',
  '-->',
  '<!DOCTYPE x [',
  ']>',
  '<?',
  '?>',
  '"',
  "'",
  '=',
  ' ',
  '\n',
  '\r',
  '\u0000',
  '\uFEFF',
  'é',
  '<image:image>',
  '<x:y xmlns:x="">',
  '<rss>',
  '<feed xmlns="http://www.w3.org/2005/Atom">',
);

test('random token soup never throws, and every entry it yields has an http(s) loc', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(token, { maxLength: 60 }), fc.nat({ max: 40 }), async (tokens, cut) => {
      const bytes = Buffer.from(tokens.join(''));
      const { entries } = await parseAll(bytes.subarray(0, bytes.length - Math.min(cut, bytes.length)));
      for (const entry of entries) assert.match(entry.loc, /^https?:/i);
    }),
    { numRuns: 500 },
  );
});

test('random bytes never throw', async () => {
  await fc.assert(
    fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (bytes) => {
      await parseAll(bytes);
    }),
    { numRuns: 300 },
  );
});

test('content after the root is ignored and reported once, however much of it there is (two documents concatenated)', async () => {
  const document = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS.sitemap}">\n${Array.from({ length: 200 }, (_, i) => `<url><loc>https://example.com/${i}</loc></url>`).join('\n')}\n</urlset>\n`;
  const r = await parseAll({ text: document + document });
  assert.equal(r.entries.length, 200, 'the first document is read whole');
  const afterRoot = r.diagnostics.filter((d) => d.code === 'XML-001' || d.code === 'XML-002');
  assert.ok(
    afterRoot.length <= 2,
    `expected at most one problem for the declaration and one for the rest, got ${afterRoot.length}`,
  );
  assert.ok(r.diagnostics.length <= 3, r.diagnostics.map((d) => d.message).join('\n'));
});
