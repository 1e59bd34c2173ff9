/**
 * The specialised tokenizer against saxes, a well-kept conforming XML parser: the same document
 * reader is driven once by our tokenizer (through parseSitemap) and once by saxes, on generated
 * and fuzzed well-formed documents, and the entries must be identical. The generator varies what
 * a tokenizer can get wrong: prefixes and default namespaces, comments and processing
 * instructions anywhere, CDATA, character and entity references, attribute quoting, whitespace.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SaxesParser } from 'saxes';
import type { Entry } from '../../src/core/entry.js';
import { NS } from '../../src/core/namespaces.js';
import { EntryProblems } from '../../src/parse/diagnostics.js';
import { XmlDocumentReader } from '../../src/parse/formats/document.js';
import { EntryQueue } from '../../src/parse/emitted.js';
import { documentSpec, writeDocument } from './generated-documents.js';
import { parseText } from './helpers.js';

/** Entries read by the same document reader, fed by saxes. Throws if saxes finds the document malformed. */
function readWithSaxes(xml: string): Entry[] {
  const out = new EntryQueue();
  const saxes = new SaxesParser({ xmlns: true, position: true });
  const reader = new XmlDocumentReader(
    { report: () => undefined },
    { maxValueLength: 65_536, problems: new EntryProblems(() => undefined), out },
  );
  const at = () => ({ line: saxes.line, column: saxes.column });
  saxes.on('error', (error) => {
    throw error;
  });
  saxes.on('opentag', (tag) => {
    const attributes = Object.values(tag.attributes).map((a) => ({
      qname: a.name,
      uri: a.uri,
      local: a.local,
      value: a.value,
    }));
    reader.openElement(tag.uri, tag.local, attributes, tag.name, at());
  });
  saxes.on('closetag', () => reader.closeElement());
  saxes.on('text', (text) => reader.text(text, at()));
  saxes.on('cdata', (text) => reader.text(text, at()));
  saxes.write(xml).close();
  return out.take().map((e) => e.entry);
}

async function assertSameEntries(xml: string): Promise<void> {
  const expected = readWithSaxes(xml);
  const ours = await parseText(xml);
  assert.deepEqual(ours.entries, expected, xml);
}

test('tokenizer differential: generated documents read as saxes reads them', async () => {
  await fc.assert(
    fc.asyncProperty(documentSpec, async (spec) => assertSameEntries(writeDocument(spec))),
    { numRuns: 300 },
  );
});

test('tokenizer differential: fuzzed documents (mutations saxes still accepts) read as saxes reads them', async () => {
  const mutation = fc.record({
    spec: documentSpec,
    at: fc.nat(),
    insert: fc.constantFrom(' ', '\n', '<!--x-->', '<?p?>', '&amp;', '&#38;', '<![CDATA[&<]]>', '>', '"', "'"),
  });
  let accepted = 0;
  await fc.assert(
    fc.asyncProperty(mutation, async ({ spec, at, insert }) => {
      const xml = writeDocument(spec);
      const cut = at % (xml.length + 1);
      const mutated = xml.slice(0, cut) + insert + xml.slice(cut);
      let expected: Entry[];
      try {
        expected = readWithSaxes(mutated);
      } catch {
        return; // not well-formed: the differential only speaks about well-formed input
      }
      accepted++;
      assert.deepEqual((await parseText(mutated)).entries, expected, JSON.stringify(mutated));
    }),
    { numRuns: 400 },
  );
  assert.ok(accepted > 50, `only ${accepted} mutated documents were well-formed`);
});

test('tokenizer differential: hand-picked tricky documents', async () => {
  const docs = [
    `<urlset xmlns="${NS.sitemap}"><url><loc>https://a.example/<![CDATA[x]]>&#x26;y&#38;z</loc></url></urlset>`,
    `<s:urlset xmlns:s="${NS.sitemap}"><s:url><s:loc>https://a.example/1</s:loc></s:url><url xmlns="${NS.sitemap}"><loc>https://a.example/2</loc></url></s:urlset>`,
    `<?xml version='1.0'?><!DOCTYPE urlset><urlset xmlns='${NS.sitemap}'><url><loc>https://a.example/?a=1&amp;b=&apos;2&apos;</loc></url></urlset>`,
    `<urlset xmlns="${NS.sitemap}"><url><loc>\r\nhttps://a.example/crlf\r\n</loc><lastmod>2024-01-01</lastmod></url></urlset>`,
    `<urlset xmlns="${NS.sitemap}" xmlns:x="${NS.xhtml}"><url><loc>https://a.example/</loc><x:link rel="alternate" hreflang="de" href="https://a.example/de?x=1&amp;y=&quot;2&quot;"/></url></urlset>`,
    `<urlset xmlns="${NS.sitemap}"><url><loc>https://a.example/]]&gt;</loc></url><!-- > - --></urlset>`,
    // Found by the fuzzer: a space inside a namespace declaration.
    `<urlset xmlns=" ${NS.sitemap}" xmlns:i="${NS.image} "><url><loc>https://a.example/</loc><i:image><i:loc>https://a.example/i</i:loc></i:image></url></urlset>`,
  ];
  for (const xml of docs) await assertSameEntries(xml);
});
