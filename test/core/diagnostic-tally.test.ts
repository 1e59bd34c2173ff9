import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DiagnosticTally, diagnostic } from '../../src/core/index.js';

test('every diagnostic is counted by severity and code; only the first few of each code are kept', () => {
  const tally = new DiagnosticTally(2);
  const kept = [1, 2, 3, 4].map((line) => tally.add(diagnostic('URL-006', 'twice', { line })));
  tally.add(diagnostic('DATE-001', 'bad date', { line: 9 }));
  tally.add(diagnostic('XML-011', 'order', { line: 10 }));
  assert.deepEqual(kept, [true, true, false, false]);
  assert.deepEqual(tally.severities(), { errors: 1, warnings: 4, infos: 1 });
  assert.equal(tally.total, 6);
  assert.deepEqual(
    tally.byCode().map((t) => [t.code, t.count, t.examples.length]),
    [
      ['URL-006', 4, 2],
      ['DATE-001', 1, 1],
      ['XML-011', 1, 1],
    ],
  );
  assert.deepEqual(tally.folded(), [{ code: 'URL-006', severity: 'warning', count: 2 }]);
  assert.deepEqual(
    tally.examples().map((d) => d.line),
    [1, 2, 9, 10],
  );
});

test('a verdict comes from the counts, not from the examples kept', () => {
  const tally = new DiagnosticTally(1);
  tally.add(diagnostic('URL-006', 'twice'));
  tally.add(diagnostic('DATE-001', 'bad date'));
  assert.equal(tally.reaches('error'), true);
  const warningsOnly = new DiagnosticTally(0);
  for (let i = 0; i < 50; i++) assert.equal(warningsOnly.add(diagnostic('URL-006', 'twice')), true);
  assert.equal(warningsOnly.reaches('error'), false);
  assert.equal(warningsOnly.reaches('warning'), true);
  assert.equal(new DiagnosticTally().reaches('info'), false);
});

test('tallies within a run-wide tally: each counts all, and the run caps the examples of all together', () => {
  const run = new DiagnosticTally(3);
  const documents = [new DiagnosticTally(2, run), new DiagnosticTally(2, run)];
  const kept = documents.map((document) =>
    [1, 2, 3].map((line) => document.add(diagnostic('DATE-001', 'bad date', { line }))),
  );
  assert.deepEqual(kept, [
    [true, true, false],
    [true, false, false],
  ]);
  assert.deepEqual(
    documents.map((document) => [document.errors, document.examples().length]),
    [
      [3, 2],
      [3, 1],
    ],
    'each document counts all of its own, keeping what the run has room for',
  );
  assert.deepEqual([run.errors, run.examples().length], [6, 3]);
  documents[1]!.addUnkept('DATE-001', 'error', 4);
  assert.equal(run.errors, 10, 'a replayed count reaches the run too');
});
