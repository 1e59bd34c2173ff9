/**
 * The catalog is the project's own: every code the source reports is in it with why and how to
 * fix, docs/rules.md is generated from it and may not drift, and `sitemapkit rules` prints it.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FAMILIES, RULES, familyOf } from '../../src/core/catalog.js';
import { rulesMarkdown } from '../../src/report/rules.js';
import { runCli } from '../helpers/cli.js';
import { REPO_DIR } from '../helpers/paths.js';

const ROOT = REPO_DIR;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

test('every code the source reports is in the catalog, with a title, why it matters and how to fix it', () => {
  const used = new Set<string>();
  for (const file of sourceFiles(join(ROOT, 'src'))) {
    if (file.endsWith('catalog.ts')) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(/'([A-Z]+-(?:\d{3}|EX))'/g)) used.add(match[1]!);
  }
  assert.ok(used.size > 60, `found ${used.size} codes in src/`);
  for (const code of used) assert.ok(RULES[code], `${code} is reported in src/ but missing from the catalog`);
  for (const [code, rule] of Object.entries(RULES)) {
    assert.match(code, /^[A-Z]+-(?:\d{3}|EX)$/, code);
    assert.notEqual(familyOf(code), 'Other', `${code}: its prefix needs a family in FAMILIES`);
    assert.ok(rule.title.length > 3 && rule.why.length > 30 && rule.fix.length > 5, `${code}: title, why and fix`);
    assert.ok(/[.)]$/.test(rule.why) && /[.)]$/.test(rule.fix), `${code}: why and fix are sentences`);
  }
  const prefixes = FAMILIES.flatMap((family) => family.prefixes);
  assert.equal(new Set(prefixes).size, prefixes.length, 'each prefix belongs to one family');
});

test('docs/rules.md is generated from the catalog (npm run docs:rules) and has not drifted', () => {
  const written = readFileSync(join(ROOT, 'docs/rules.md'), 'utf8');
  assert.equal(written, rulesMarkdown(), 'docs/rules.md differs from the catalog: run npm run docs:rules');
  for (const code of Object.keys(RULES)) assert.ok(written.includes(`### ${code}\n`), code);
});

test('sitemapkit rules lists every rule; rules CODE prints one in full; --json gives one object per line', async () => {
  const list = await runCli(['rules']);
  assert.equal(list.code, 0);
  assert.equal(list.stdout.split('\n').filter((line) => /^ {2}[A-Z]+-/.test(line)).length, Object.keys(RULES).length);
  assert.match(list.stdout, /^Page URLs\n {2}URL-001 +error +not an absolute http\(s\) URL$/m);

  const one = await runCli(['rules', 'date-005']);
  assert.equal(one.code, 0);
  assert.match(one.stdout, /^DATE-005 \(warning\): date in the future\n/);
  assert.match(one.stdout, /\nWhy it matters:\n {2}A page cannot have changed in the future/);
  assert.match(one.stdout, /\nHow to fix it:\n {2}Write the date the page last changed/);

  const family = await runCli(['rules', 'HREF', '--json']);
  assert.equal(family.code, 0);
  const rules = family.stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { code: string; severity: string; why: string; fix: string });
  assert.deepEqual(
    rules.map((rule) => rule.code),
    ['HREF-001', 'HREF-002', 'HREF-003', 'HREF-004', 'HREF-005', 'HREF-006', 'HREF-007', 'HREF-008'],
  );
  assert.deepEqual(rules[0], { code: 'HREF-001', family: 'hreflang alternates', ...RULES['HREF-001'] });

  const unknown = await runCli(['rules', 'NOPE-001']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /no rule has the code or family "NOPE-001"/);
});
