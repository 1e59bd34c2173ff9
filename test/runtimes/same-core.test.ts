/**
 * The web entry is the Node entry's core on another edge, not a second implementation: on every
 * document of the conformance corpus (plain and gzip, well-formed and broken), both parse the same
 * entries with the same diagnostics, and validate to the same result.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as web from 'sitemapkit/web';
import type { Diagnostic, Entry, ParsedSitemap } from '../../src/index.js';
import { parseSitemap } from '../../src/parse/index.js';
import { validateSitemap } from '../../src/validate/index.js';
import { loadManifest, rawBytesOf } from '../helpers/conformance.js';

const cases = loadManifest();

/** A gzip error's message is the decompressor's own wording; everything else must match to the letter. */
const comparable = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => (d.code === 'FETCH-005' ? { ...d, message: '(the decompressor’s words)' } : d));

async function read(
  parsed: ParsedSitemap,
): Promise<{ entries: Entry[]; kind: string | undefined; diagnostics: unknown }> {
  const entries: Entry[] = [];
  for await (const entry of parsed) entries.push(entry);
  return { entries, kind: parsed.kind, diagnostics: comparable(parsed.diagnostics) };
}

test(`both entries parse the ${cases.length} documents of the corpus alike`, async () => {
  for (const one of cases) {
    const bytes = new Uint8Array(rawBytesOf(one));
    const options = { source: one.id, ...(one.base_url ? { baseUrl: one.base_url } : {}) };
    assert.deepEqual(await read(web.parseSitemap(bytes, options)), await read(parseSitemap(bytes, options)), one.id);
  }
});

test(`both entries validate the ${cases.length} documents of the corpus alike`, async () => {
  const now = new Date('2024-06-01T00:00:00Z');
  for (const one of cases) {
    const bytes = new Uint8Array(rawBytesOf(one));
    const location = one.base_url ?? undefined;
    const options = { now, ...(location ? { location } : {}) };
    const onWeb = await web.validateSitemap(bytes, { ...options, source: one.id });
    const onNode = await validateSitemap({ name: one.id, input: bytes }, options);
    assert.deepEqual(
      { ...onWeb, diagnostics: comparable(onWeb.diagnostics) },
      { ...onNode, diagnostics: comparable(onNode.diagnostics) },
      one.id,
    );
  }
});
