import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { after, test } from 'node:test';
import type { LedgerRun, StagedUrl } from '../../src/generate/ledger.js';
import { GenerateLedger } from '../../src/store/generate-ledger.js';
import { generateLedgerPath } from '../../src/store/site-database.js';

const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-ledger-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshLedger = (): GenerateLedger => new GenerateLedger(generateLedgerPath(join(dir, `state-${++files}`)));

const SITE = 'https://www.example.com/';

function staged(loc: string, change: StagedUrl['change'], digest = `d-${loc}`): StagedUrl {
  return {
    loc,
    shard: undefined,
    seq: undefined,
    text: `<url><loc>${loc}</loc></url>\n`,
    bytes: 30,
    news: false,
    lastmod: undefined,
    lastmodMillis: undefined,
    digest,
    changedAt: '2024-05-01T00:00:00Z',
    contentDigest: undefined,
    contentChangedAt: undefined,
    change,
  };
}

/** Stages `urls` (placing new ones in shard 0) and records the run as if one shard were published. */
function runWith(ledger: GenerateLedger, urls: StagedUrl[], at: string): ReturnType<LedgerRun['record']> {
  const run = ledger.beginRun(SITE);
  for (const url of urls) run.stage({ ...url, seq: run.recall(url.loc)?.seq, shard: run.recall(url.loc)?.shard });
  run.endStaging();
  for (const { seq } of [...run.unplaced()]) run.place(0, seq, seq);
  return run.record(
    'layout',
    [{ shard: 0, name: 'sitemap.xml', digest: 'ab', urls: urls.length, bytes: 1 }],
    new Date(at),
  );
}

test('the ledger is <state>/generate.sqlite, with generate_runs and generate_changes exactly as submit reads them', () => {
  const ledger = freshLedger();
  assert.match(ledger.file, /state-\d+\/generate\.sqlite$/);
  ledger.close();
  const db = new Database(generateLedgerPath(join(dir, `state-${files}`)), { readonly: true });
  const columns = (table: string) =>
    db
      .prepare<[], { name: string; type: string; pk: number }>(`PRAGMA table_info(${table})`)
      .all()
      .map(({ name, type, pk }) => [name, type, pk]);
  assert.deepEqual(columns('generate_runs'), [
    ['run', 'INTEGER', 1],
    ['at', 'TEXT', 0],
    ['base_url', 'TEXT', 0],
  ]);
  assert.deepEqual(columns('generate_changes'), [
    ['run', 'INTEGER', 0],
    ['loc', 'TEXT', 0],
    ['change', 'TEXT', 0],
    ['digest', 'TEXT', 0],
    ['at', 'TEXT', 0],
  ]);
  db.close();
  const writable = new Database(generateLedgerPath(join(dir, `state-${files}`)));
  assert.throws(
    () => writable.prepare("INSERT INTO generate_changes (run, loc, change) VALUES (1, 'x', 'moved')").run(),
    /CHECK constraint failed/,
  );
  writable.close();
});

test('each recorded run is appended with its changes: added and changed in the order met, removed with no digest', () => {
  const ledger = freshLedger();
  assert.equal(ledger.knows(SITE), false);
  const first = runWith(
    ledger,
    [staged('/a', 'added'), staged('/b', 'added'), staged('/c', 'added')],
    '2024-05-01T10:00:00Z',
  );
  assert.deepEqual(first, { run: 1, firstRun: true, added: 3, changed: 0, removed: 0 });
  assert.equal(ledger.knows(SITE), true);
  const second = runWith(
    ledger,
    [staged('/c', 'changed', 'd-c2'), staged('/a', 'same'), staged('/d', 'added')],
    '2024-05-02T10:00:00Z',
  );
  assert.deepEqual(second, { run: 2, firstRun: false, added: 1, changed: 1, removed: 1 });
  assert.deepEqual(ledger.changesOf(2, 'removed', 10), ['/b']);
  ledger.close();

  const db = new Database(ledger.file, { readonly: true });
  assert.deepEqual(db.prepare('SELECT run, at, base_url FROM generate_runs ORDER BY run').all(), [
    { run: 1, at: '2024-05-01T10:00:00.000Z', base_url: SITE },
    { run: 2, at: '2024-05-02T10:00:00.000Z', base_url: SITE },
  ]);
  assert.deepEqual(
    db.prepare('SELECT run, loc, change, digest, at FROM generate_changes WHERE run = 2 ORDER BY rowid').all(),
    [
      { run: 2, loc: '/c', change: 'changed', digest: 'd-c2', at: '2024-05-02T10:00:00.000Z' },
      { run: 2, loc: '/d', change: 'added', digest: 'd-/d', at: '2024-05-02T10:00:00.000Z' },
      { run: 2, loc: '/b', change: 'removed', digest: null, at: '2024-05-02T10:00:00.000Z' },
    ],
  );
  db.close();
});

test('a URL keeps its place: recalled with its shard, order and digests', () => {
  const ledger = freshLedger();
  runWith(ledger, [staged('/a', 'added'), staged('/b', 'added')], '2024-05-01T10:00:00Z');
  const run = ledger.beginRun(SITE);
  assert.deepEqual(run.recall('/b'), { shard: 0, seq: 1, digest: 'd-/b', changedAt: '2024-05-01T00:00:00Z' });
  assert.equal(run.recall('/nowhere'), undefined);
  assert.equal(run.layout, 'layout');
  run.discard();
  ledger.close();
});

test('a run that is discarded (failed, interrupted) leaves the ledger as it was, and a duplicate is refused', () => {
  const ledger = freshLedger();
  runWith(ledger, [staged('/a', 'added')], '2024-05-01T10:00:00Z');
  const run = ledger.beginRun(SITE);
  assert.equal(run.stage(staged('/z', 'added')), true);
  assert.equal(run.stage(staged('/z', 'added')), false, 'a duplicate');
  assert.throws(() => ledger.beginRun(SITE), /one run at a time/);
  run.discard();
  const again = runWith(ledger, [staged('/a', 'same'), staged('/z', 'added')], '2024-05-02T10:00:00Z');
  assert.deepEqual(again, { run: 2, firstRun: false, added: 1, changed: 0, removed: 0 });
  ledger.close();
});

test("sites are apart: one site's run never removes another's URLs", () => {
  const ledger = freshLedger();
  runWith(ledger, [staged('/a', 'added')], '2024-05-01T10:00:00Z');
  const other = ledger.beginRun('https://blog.example.com/');
  assert.equal(other.firstRun, true);
  assert.equal(other.recall('/a'), undefined);
  other.stage(staged('/x', 'added'));
  other.endStaging();
  other.place(0, 0, 0);
  assert.deepEqual(other.record('layout', [], new Date('2024-05-03T00:00:00Z')), {
    run: 2,
    firstRun: true,
    added: 1,
    changed: 0,
    removed: 0,
  });
  assert.deepEqual(runWith(ledger, [staged('/a', 'same')], '2024-05-04T00:00:00Z').removed, 0);
  ledger.close();
});
