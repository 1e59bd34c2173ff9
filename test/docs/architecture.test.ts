/**
 * The plan of the house holds: every import between folders of src/ is one that the layer table of
 * docs/architecture.md allows. The table is read from the document itself, so the code and the
 * document cannot drift apart without this test saying where.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { REPO_DIR } from '../helpers/paths.js';

const ROOT = REPO_DIR;
const SRC = join(ROOT, 'src');

interface Layer {
  /** `core` for `src/core/`, `index` for `src/index.ts`. */
  name: string;
  allowed: ReadonlySet<string>;
}

/** The layer table: its rows in order, each with the layers its last column allows. */
function readLayerTable(): Layer[] {
  const document = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const rows = [...document.matchAll(/^\| `src\/([a-z-]+)(?:\/|\.ts)` \|.*\| ([^|]+) \|$/gm)];
  const names = rows.map((row) => row[1]!);
  return rows.map((row, index) => {
    const rule = row[2]!.replace(/\([^)]*\)/g, '').trim();
    const named = (text: string) => [...text.matchAll(/`([a-z-]+)`/g)].map((match) => match[1]!);
    const except = (text: string) => new Set(named(text.split(' but ')[1] ?? ''));
    // "everything above, plus `x`": one layer below allowed as well, named in the row.
    const plus = (text: string) => named(text.split(' plus ')[1] ?? '');
    let allowed: string[];
    if (rule.startsWith('nothing')) allowed = [];
    else if (rule.startsWith('everything above'))
      allowed = [...names.slice(0, index).filter((n) => !except(rule).has(n)), ...plus(rule)];
    else if (rule.startsWith('anything')) allowed = names.filter((n) => !except(rule).has(n));
    else allowed = named(rule);
    return { name: row[1]!, allowed: new Set(allowed) };
  });
}

/** The layer a file of src/ belongs to: its top folder, or its own name for a file at the top. */
function layerOf(path: string): string {
  const first = relative(SRC, path).split('/')[0]!;
  return first.replace(/\.[jt]s$/, '');
}

function* sourceFiles(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

interface Import {
  file: string;
  line: number;
  from: string;
  to: string;
}

/** Every import (static, type-only, dynamic or re-export) from one layer of src/ into another. */
function importsBetweenLayers(): Import[] {
  const found: Import[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm)) {
      const target = resolve(dirname(file), match[1]!);
      const [from, to] = [layerOf(file), layerOf(target)];
      if (from === to) continue;
      const line = text.slice(0, match.index).split('\n').length;
      found.push({ file: relative(ROOT, file), line, from, to });
    }
  }
  return found;
}

test('the layer table names every folder and file at the top of src/', () => {
  const layers = new Set(readLayerTable().map((layer) => layer.name));
  const present = readdirSync(SRC).map((name) => name.replace(/\.ts$/, ''));
  assert.deepEqual(
    present.filter((name) => !layers.has(name)),
    [],
    'add a row to the table of docs/architecture.md for each of these',
  );
});

test('every import between folders is one the layer table allows', () => {
  const layers = new Map(readLayerTable().map((layer) => [layer.name, layer]));
  const imports = importsBetweenLayers();
  assert.ok(imports.length > 100, `the scan found only ${imports.length} imports: is the pattern still right?`);
  const forbidden = imports
    .filter((edge) => !layers.get(edge.from)?.allowed.has(edge.to))
    .map((edge) => `${edge.file}:${edge.line}: ${edge.from} may not import ${edge.to}`);
  assert.deepEqual(forbidden, [], 'docs/architecture.md forbids these imports; move the code or change the table');
});

test('the table is read as written: core imports nothing, cli is imported by nothing', () => {
  const layers = new Map(readLayerTable().map((layer) => [layer.name, layer]));
  assert.deepEqual([...layers.get('core')!.allowed], []);
  assert.ok(layers.get('crawl')!.allowed.has('discover'), 'everything above crawl includes discover');
  assert.ok(!layers.get('crawl')!.allowed.has('audit'), 'audit is below crawl');
  assert.ok(!layers.get('index')!.allowed.has('cli'));
  assert.ok(![...layers.values()].some((layer) => layer.name !== 'cli' && layer.allowed.has('cli')));
});
