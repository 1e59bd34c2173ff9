/**
 * Real documents with random damage, for properties that must hold on broken input too: the
 * conformance corpus's documents of some formats, each damaged at one or more places (a
 * character dropped, doubled, replaced or inserted) and cut at a random place past the head the
 * reader sniffs whole.
 */
import fc from 'fast-check';
import { documentBytesOf, loadManifest } from '../helpers/conformance.js';

/** What damage does: markup characters, references, CDATA and comment openers, non-ASCII. */
const PIECES = [
  '<',
  '>',
  '/',
  '&',
  ';',
  ' ',
  '\n',
  '\r',
  '"',
  "'",
  '=',
  'x',
  ':',
  '\u00e9',
  ']]>',
  '<!--',
  '<![CDATA[',
  '&#',
  '&amp;',
  '</loc>',
];

/** The reader looks at the first kilobyte as a whole: cuts inside it are joined again before reading. */
const SNIFFED = 1024;

export interface DamagedDocument {
  bytes: Buffer;
  /** Where the bytes are cut (none when the document is too short to cut past the head). */
  cuts: number[];
}

/** Damaged documents of the given formats, shorter than 20,000 characters. */
export function damagedDocuments(formats: readonly string[], maxDamage = 3): fc.Arbitrary<DamagedDocument> {
  const documents = loadManifest()
    .filter((c) => formats.includes(c.format))
    .map((c) => documentBytesOf(c).toString('utf8'))
    .filter((xml, i, all) => xml.length < 20_000 && all.indexOf(xml) === i);
  const damage = fc.record({
    at: fc.nat(),
    kind: fc.constantFrom('drop', 'double', 'replace', 'insert'),
    by: fc.constantFrom(...PIECES),
  });
  return fc
    .record({
      document: fc.nat({ max: documents.length - 1 }),
      damages: fc.array(damage, { minLength: 1, maxLength: maxDamage }),
      cut: fc.nat(),
    })
    .map(({ document, damages, cut }) => {
      let xml = documents[document]!;
      for (const { at, kind, by } of damages) {
        const i = at % (xml.length + 1);
        const rest = kind === 'insert' || kind === 'double' ? xml.slice(i) : xml.slice(i + 1);
        xml = xml.slice(0, i) + (kind === 'drop' ? '' : kind === 'double' ? xml.charAt(i) : by) + rest;
      }
      const bytes = Buffer.from(xml);
      return { bytes, cuts: bytes.length > SNIFFED ? [SNIFFED + (cut % (bytes.length - SNIFFED))] : [] };
    });
}
