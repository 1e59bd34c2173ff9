import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { csvCell } from '../../src/core/csv.js';

/** The first cell of a CSV text, as a CSV reader reads it. */
const firstCell = (text: string): string | undefined => {
  const rows: string[][] = parse(text);
  return rows[0]?.[0];
};

test('a cell that a spreadsheet would run as a formula starts with a single quote (OWASP)', () => {
  for (const value of ['=HYPERLINK("http://evil.example/","x")', '+1+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1'])
    assert.equal(firstCell(csvCell(value)), `'${value}`, JSON.stringify(value));
});

test('other cells are written as they are, quoted by RFC 4180 where they must be', () => {
  assert.equal(csvCell('https://example.com/a'), 'https://example.com/a');
  assert.equal(csvCell('text/html; charset=utf-8'), 'text/html; charset=utf-8');
  assert.equal(csvCell('a"b'), '"a""b"');
  assert.equal(csvCell('a,=b'), '"a,=b"');
  assert.equal(csvCell('=a,"b"'), `"'=a,""b"""`);
  assert.equal(csvCell(''), '');
});
