/**
 * The shared rule cases (cases.ts) against all three parts that apply the rules: the generator's
 * prepareEntry, the parser (a document built around the case) and the validator (the same
 * document). Each must report exactly the codes the table gives, and leave out or keep what it
 * says.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Diagnostic, Entry } from '../../src/core/index.js';
import { prepareEntry } from '../../src/generate/index.js';
import { ParseError, parseSitemap } from '../../src/parse/index.js';
import { validateSitemap } from '../../src/validate/index.js';
import { CASES, LOC, LOCATION, NOW, type Outcome, type RuleCase } from './cases.js';
import { SITE, urlsetOf } from './document.js';

const sorted = (codes: readonly string[]) => [...codes].sort();
const describe = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => `${d.code} ${d.message}`).join('\n') || '(none)';

/** The value at a path such as 'videos.0.duration' (undefined when any step is missing). */
function at(value: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (node, key) => (node === null || typeof node !== 'object' ? undefined : (node as Record<string, unknown>)[key]),
      value,
    );
}

function assertKept(entry: Entry | undefined, outcome: Outcome, what: string): void {
  if (outcome.leftOut === 'entry') {
    assert.equal(entry, undefined, `${what}: the entry is left out`);
    return;
  }
  assert.ok(entry, `${what}: the entry is kept`);
  if (outcome.leftOut !== undefined)
    assert.equal(at(entry, outcome.leftOut), undefined, `${what}: ${outcome.leftOut} is left out`);
  if (outcome.kept !== undefined)
    assert.notEqual(at(entry, outcome.kept), undefined, `${what}: ${outcome.kept} is kept`);
}

function entryOf(c: RuleCase): Record<string, unknown> {
  return { loc: LOC, ...c.entry };
}

for (const c of CASES) {
  test(`rule case: ${c.name}`, async () => {
    const raw = entryOf(c);

    // generate
    const generate = { codes: c.codes, ...c.generate };
    const prepared = prepareEntry(raw, { baseUrl: `${SITE}/`, allowOtherHosts: false, now: NOW.getTime() });
    const generated = prepared.ok ? prepared.problems.map((p) => p.code) : [prepared.problem.code];
    assert.deepEqual(sorted(generated), sorted(generate.codes), `generate: ${JSON.stringify(prepared).slice(0, 600)}`);
    assertKept(prepared.ok ? prepared.entry : undefined, generate, 'generate');

    // parse
    const document = urlsetOf([raw]);
    const parse = { codes: c.codes, ...c.parse };
    const parsed = parseSitemap({ text: document }, { baseUrl: LOCATION });
    const entries: Entry[] = [];
    for await (const entry of parsed) entries.push(entry);
    assert.deepEqual(
      sorted(parsed.diagnostics.map((d) => d.code)),
      sorted(parse.codes),
      `parse:\n${describe(parsed.diagnostics)}`,
    );
    assertKept(entries[0], parse, 'parse');
    // --strict stops at the first error the lenient read reported (kept values included).
    const firstError = parsed.diagnostics.find((d) => d.severity === 'error');
    const strict = (async () => {
      for await (const _ of parseSitemap({ text: document }, { baseUrl: LOCATION, strict: true }));
    })();
    if (firstError === undefined) await strict;
    else
      await assert.rejects(strict, (error) => error instanceof ParseError && error.diagnostic.code === firstError.code);

    // validate
    const result = await validateSitemap(
      { name: 'case.xml', input: { text: document } },
      { location: LOCATION, now: NOW },
    );
    assert.deepEqual(
      sorted(result.diagnostics.map((d) => d.code)),
      sorted(c.codes),
      `validate:\n${describe(result.diagnostics)}`,
    );
  });
}

test('the case table covers the disagreements of issue 10 and every family of field rules', () => {
  const codes = new Set(CASES.flatMap((c) => [...c.codes, ...(c.generate?.codes ?? []), ...(c.parse?.codes ?? [])]));
  for (const code of [
    'URL-001',
    'URL-002',
    'URL-003',
    'URL-004',
    'URL-007',
    'URL-008',
    'DATE-001',
    'DATE-002',
    'DATE-003',
    'DATE-004',
    'DATE-005',
    'FREQ-001',
    'PRIO-001',
    'HREF-001',
    'HREF-002',
    'HREF-003',
    'IMG-001',
    'IMG-002',
    'IMG-003',
    'VID-001',
    'VID-002',
    'VID-003',
    'VID-004',
    'VID-005',
    'VID-006',
    'VID-007',
    'VID-008',
    'VID-009',
    'VID-010',
    'NEWS-001',
    'NEWS-003',
    'NEWS-004',
    'NEWS-005',
    'NEWS-006',
    'NEWS-007',
  ])
    assert.ok(codes.has(code), code);
});
