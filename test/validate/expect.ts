/**
 * Fixture expectations: a diagnostic's place is given as a snippet of the fixture (its n-th
 * occurrence), and the test computes the 1-based line and column of that snippet from the file
 * itself, so every case asserts an exact position without hand-counted numbers.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Diagnostic, Severity } from '../../src/core/diagnostics.js';

export interface Expected {
  code: string;
  severity: Severity;
  /** Text at the reported position (the value, or the start tag for missing children). */
  at: string;
  /** Which occurrence of `at` (1-based, default 1). */
  nth?: number;
  /** The entry's loc the diagnostic must carry. */
  url?: string;
}

export function positionOf(text: string, snippet: string, nth = 1): { line: number; column: number } {
  let index = -1;
  for (let i = 0; i < nth; i++) {
    index = text.indexOf(snippet, index + 1);
    assert.ok(index >= 0, `snippet ${JSON.stringify(snippet.slice(0, 60))} (#${nth}) is not in the fixture`);
  }
  const before = text.slice(0, index);
  const line = before.split('\n').length;
  return { line, column: index - (before.lastIndexOf('\n') + 1) + 1 };
}

/**
 * Asserts that `diagnostics` are exactly the expected ones: each at its snippet's exact position,
 * with its severity and URL, and no other diagnostic besides (a fixture that draws an extra
 * problem fails, so a case cannot pass on a superset).
 */
export function assertDiagnostics(
  diagnostics: readonly Diagnostic[],
  fixture: string,
  expected: readonly Expected[],
): void {
  const text = readFileSync(fixture, 'utf8');
  const place = (d: { code: string; line?: number | undefined; column?: number | undefined }) =>
    `${d.code}@${d.line}:${d.column}`;
  const wanted = expected.map((want) => place({ code: want.code, ...positionOf(text, want.at, want.nth) }));
  assert.deepEqual(
    diagnostics.map(place).sort(),
    [...wanted].sort(),
    `the diagnostics of ${fixture} are not exactly those expected; got:\n${describe(diagnostics)}`,
  );
  for (const want of expected) {
    const { line, column } = positionOf(text, want.at, want.nth);
    const found = diagnostics.find((d) => d.code === want.code && d.line === line && d.column === column);
    assert.ok(
      found,
      `expected ${want.code} at ${line}:${column} (${JSON.stringify(want.at.slice(0, 40))}); got:\n${describe(diagnostics)}`,
    );
    assert.equal(found.severity, want.severity, `${want.code} at ${line}:${column}: severity`);
    assert.ok(found.message.length > 20, `${want.code}: the message says what is wrong and how to fix it`);
    if (want.url !== undefined) assert.equal(found.url, want.url, `${want.code} at ${line}:${column}: url`);
  }
}

export function describe(diagnostics: readonly Diagnostic[]): string {
  return (
    diagnostics.map((d) => `  ${d.line}:${d.column} ${d.severity} ${d.code} ${d.message}`).join('\n') || '  (none)'
  );
}
