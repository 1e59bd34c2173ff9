/**
 * The line index (src/parse/xml/line-index.ts), the one owner of positions while a document is
 * read: every place it gives must be the place counted on the whole text, however the text came
 * in pieces, whatever was released before, and in whatever order places are asked for.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { LineIndex } from '../../src/parse/xml/line-index.js';

/** The place of `offset` counted on the whole text: line feeds start lines, columns from 1. */
function counted(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

/** An index that held the text as it grew, piece by piece. */
function indexOf(pieces: readonly string[]): LineIndex {
  const lines = new LineIndex();
  let text = '';
  for (const piece of pieces) lines.hold((text += piece), 0);
  return lines;
}

test('line index: lines start after a line feed, columns count UTF-16 units from 1', () => {
  const lines = indexOf(['ab\ncd', '\n\nx\r\ny\rz']);
  assert.deepEqual(lines.positionOf(0), { line: 1, column: 1 });
  assert.deepEqual(lines.positionOf(2), { line: 1, column: 3 }, 'the line feed is the last character of its line');
  assert.deepEqual(lines.positionOf(3), { line: 2, column: 1 });
  assert.deepEqual(lines.positionOf(6), { line: 3, column: 1 }, 'an empty line');
  assert.deepEqual(lines.positionOf(10), { line: 5, column: 1 }, 'CRLF starts one line');
  assert.deepEqual(lines.positionOf(12), { line: 5, column: 3 }, 'a CR alone starts none');
  assert.deepEqual(lines.positionOf(13), { line: 5, column: 4 }, 'just past the text');
  const astral = indexOf(['\u{1F600}\n\u00e9x']);
  assert.deepEqual(astral.positionOf(2), { line: 1, column: 3 }, 'an astral character is two units');
  assert.deepEqual(astral.positionOf(4), { line: 2, column: 2 });
});

test('line index: places asked backwards, forwards and far apart are all right', () => {
  const text = Array.from({ length: 500 }, (_, i) => 'x'.repeat(i % 7)).join('\n');
  const lines = indexOf([text]);
  for (const offset of [text.length, 0, 1500, 3, 1499, 1501, 2, text.length - 1, 700])
    assert.deepEqual(lines.positionOf(offset), counted(text, offset), `offset ${offset}`);
});

test('line index: the text before the one held is forgotten, the line it starts in is kept', () => {
  const text = 'one\ntwo\nthree\nfour\nfive';
  const lines = indexOf([text.slice(0, 15)]);
  lines.hold(text.slice(9, 15), 9); // from inside "three", which starts at 8
  assert.deepEqual(lines.positionOf(8), { line: 3, column: 1 });
  assert.deepEqual(lines.positionOf(9), { line: 3, column: 2 });
  lines.hold(text.slice(9), 9);
  assert.deepEqual(lines.positionOf(19), { line: 5, column: 1 });
  lines.hold(text.slice(19), 19);
  lines.hold(text.slice(19), 19);
  assert.deepEqual(lines.positionOf(22), { line: 5, column: 4 });
});

test('line index: text let go before any place was asked for is counted all the same', () => {
  const text = 'a\nb\r\nc\rd\n\ne';
  const lines = indexOf([text.slice(0, 4)]);
  lines.hold(text.slice(3), 3);
  lines.hold(text.slice(9), 9);
  assert.deepEqual(lines.positionOf(9), counted(text, 9));
  assert.deepEqual(lines.positionOf(text.length), counted(text, text.length));
});

test('line index: a long stream let go as it goes places its last lines right', () => {
  const lines = new LineIndex();
  let offset = 0;
  let line = '';
  for (let piece = 0; piece < 2_000; piece++) {
    line = `<url><loc>https://example.com/${piece}</loc></url>\n`;
    const text = line.repeat(50);
    lines.hold(text, offset);
    if (piece % 3 === 0) lines.positionOf(offset + 7);
    offset += text.length;
  }
  assert.deepEqual(lines.positionOf(offset), { line: 100_001, column: 1 });
  assert.deepEqual(lines.positionOf(offset - 5), { line: 100_000, column: line.length - 4 });
});

test('line index: any text, grown, let go and asked about in any order, places as counted whole', () => {
  const character = fc.constantFrom('a', '<', '\n', '\r', '\u00e9', '\u{1F600}');
  const step = fc.record({ kind: fc.constantFrom('grow', 'let go', 'ask'), by: fc.nat() });
  const scenario = fc.record({
    text: fc.array(character, { maxLength: 300 }).map((chars) => chars.join('')),
    steps: fc.array(step, { minLength: 1, maxLength: 40 }),
  });
  fc.assert(
    fc.property(scenario, ({ text, steps }) => {
      const lines = new LineIndex();
      // The text in hand is text[from, to).
      let from = 0;
      let to = 0;
      for (const { kind, by } of steps) {
        if (kind === 'ask') {
          const offset = from + (by % (to - from + 1));
          assert.deepEqual(lines.positionOf(offset), counted(text, offset), `offset ${offset}`);
          continue;
        }
        if (kind === 'grow') to += by % (text.length - to + 1);
        else from += by % (to - from + 1);
        lines.hold(text.slice(from, to), from);
      }
    }),
    { numRuns: 1000 },
  );
});
