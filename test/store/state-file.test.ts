/**
 * The one opener of the state files that outlive a release (issue 26 §5): each store's versions
 * recorded in a fresh file, a file of a newer sitemapkit refused with both versions and what to
 * do, a file written before versions were recorded adopted (its data kept), a file of another
 * layout refused, and a migration that fails leaving the file as it was.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { after, describe, it } from 'node:test';
import { GENERATE_LEDGER_SCHEMA, GenerateLedger, GenerateLedgerReader } from '../../src/store/generate-ledger.js';
import type { StoreSchema } from '../../src/store/migrations.js';
import { generateLedgerPath } from '../../src/store/site-database.js';
import { SITEMAP_MEMORY_SCHEMA, SitemapMemory } from '../../src/store/sitemap-memory.js';
import { RunStore } from '../../src/store/run-store.js';
import { keepOrDiscardStateFile, openStateFile } from '../../src/store/state-file.js';
import { SUBMISSION_LEDGER_SCHEMA, SubmissionLedger } from '../../src/store/submission-ledger.js';
import { observeGenerateLedger } from '../../src/submit/observe.js';
import { runCli } from '../helpers/cli.js';
import { REPO_DIR } from '../helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-state-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newFile = (): string => {
  const folder = join(dir, `f-${++files}`);
  mkdirSync(folder);
  return join(folder, 'state.sqlite');
};

/** The tables of each state file as today's release (before versions) writes them. */
const unversioned = (name: string): string =>
  readFileSync(new URL(`fixtures/unversioned/${name}.sql`, import.meta.url), 'utf8');

interface StoreCase {
  name: string;
  schema: StoreSchema;
  /** The fixture of the file as the release before versions wrote it. */
  fixture: string;
  open(file: string): { close(): void };
  /** A row as that release wrote it, and whether the store reads it back. */
  seed: string;
  reads(file: string): boolean;
}

const STORES: StoreCase[] = [
  {
    name: 'the generate ledger',
    schema: GENERATE_LEDGER_SCHEMA,
    fixture: 'generate-ledger',
    open: (file) => new GenerateLedger(file),
    seed: "INSERT INTO generate_sites (base_url, layout, next_seq) VALUES ('https://e.com/', '{}', 3)",
    reads: (file) => withStore(new GenerateLedger(file), (ledger) => ledger.knows('https://e.com/')),
  },
  {
    name: 'the submission ledger',
    schema: SUBMISSION_LEDGER_SCHEMA,
    fixture: 'submission-ledger',
    open: (file) => new SubmissionLedger(file),
    seed: "INSERT INTO submit_hosts (host, first_seen_at) VALUES ('e.com', '2024-05-01T00:00:00Z')",
    reads: (file) => withStore(new SubmissionLedger(file), (ledger) => ledger.knowsHost('e.com')),
  },
  {
    name: "the tree's memory",
    schema: SITEMAP_MEMORY_SCHEMA,
    fixture: 'sitemap-memory',
    open: (file) => new SitemapMemory(file),
    seed: `INSERT INTO tree_sitemaps (url, digest, kind, urls, sitemaps, children, read_at, problems)
           VALUES ('https://e.com/sitemap.xml', 'd', 'urlset', 2, 0, '[]', '2024-05-01', '{"examples":[],"counts":{}}')`,
    reads: (file) =>
      withStore(new SitemapMemory(file), (memory) => memory.recall('https://e.com/sitemap.xml')?.digest === 'd'),
  },
];

function withStore<S extends { close(): void }, T>(store: S, work: (store: S) => T): T {
  try {
    return work(store);
  } finally {
    store.close();
  }
}

/** What the file records in sitemapkit_schema, read as any SQLite client would. */
function recorded(file: string): { version: number; name: string }[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare<[], { version: number; name: string }>('SELECT version, name FROM sitemapkit_schema').all();
  } finally {
    db.close();
  }
}

function rawSql(file: string, sql: string): void {
  const db = new Database(file);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

for (const store of STORES) {
  const known = store.schema.migrations.at(-1)!.version;
  describe(store.name, () => {
    it('records each version it applies in a fresh file', () => {
      const file = newFile();
      store.open(file).close();
      assert.deepEqual(
        recorded(file),
        store.schema.migrations.map(({ version, name }) => ({ version, name })),
      );
      store.open(file).close(); // a second open applies nothing
      assert.equal(recorded(file).length, store.schema.migrations.length);
    });

    it('refuses a file written by a newer sitemapkit, naming the file, both versions and what to do', () => {
      const file = newFile();
      store.open(file).close();
      rawSql(file, "INSERT INTO sitemapkit_schema (version, name, applied_at) VALUES (99, 'from the future', 0)");
      assert.throws(() => store.open(file), {
        message: new RegExp(
          `^${escape(file)} \\(${escape(store.schema.title)}\\) has schema version 99, newer than this sitemapkit knows \\(${known}\\): .*upgrade sitemapkit to use it, or ${escape(store.schema.otherwise!)}$`,
        ),
      });
      assert.equal(Math.max(...recorded(file).map((row) => row.version)), 99, 'the file is left as it was');
    });

    it('adopts a file written before versions were recorded, and keeps its data', () => {
      const file = newFile();
      rawSql(file, `${unversioned(store.fixture)};\n${store.seed};`);
      assert.ok(store.reads(file), 'the row written before versions is read back');
      assert.deepEqual(recorded(file), [{ version: known, name: `${store.schema.migrations.at(-1)!.name} (adopted)` }]);
      assert.ok(store.reads(file), 'and again, once adopted');
    });
  });
}

describe('the opener of state files', () => {
  it("migrates the tree's memory from before problems were remembered: its rows are kept, and read again", () => {
    const file = newFile();
    rawSql(
      file,
      `${unversioned('sitemap-memory-before-problems')};
       INSERT INTO tree_sitemaps (url, digest, kind, urls, sitemaps, children, read_at)
       VALUES ('https://e.com/sitemap.xml', 'd', 'urlset', 2, 0, '[]', '2024-05-01');`,
    );
    const memory = new SitemapMemory(file);
    assert.equal(memory.recall('https://e.com/sitemap.xml'), undefined, 'its problems are unknown: read it again');
    memory.close();
    assert.deepEqual(recorded(file), [
      { version: 1, name: 'sitemaps read whole (adopted)' },
      { version: 2, name: "a sitemap's problems" },
    ]);
    const db = new Database(file, { readonly: true });
    assert.deepEqual(db.prepare('SELECT url FROM tree_sitemaps').all(), [{ url: 'https://e.com/sitemap.xml' }]);
    db.close();
  });

  it('refuses a file that records no version and holds tables of no version it knows, and leaves it alone', () => {
    const file = newFile();
    rawSql(file, "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine');");
    assert.throws(() => new GenerateLedger(file), {
      message: `${file} holds tables that are not the generate ledger of any version this sitemapkit knows (written by another version of sitemapkit, or by another program): move it away to start a new ledger (the history of its runs is lost)`,
    });
    const db = new Database(file, { readonly: true });
    assert.deepEqual(
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all(),
      [{ name: 'notes' }],
      'no table added, not even sitemapkit_schema',
    );
    db.close();
  });

  it('leaves the file as it was when a migration fails: its version, its tables and its rows', () => {
    const file = newFile();
    const ledger = new GenerateLedger(file);
    ledger.close();
    rawSql(file, "INSERT INTO generate_runs (at, base_url) VALUES ('2024-05-01', 'https://e.com/')");
    const failing: StoreSchema = {
      ...GENERATE_LEDGER_SCHEMA,
      migrations: [
        ...GENERATE_LEDGER_SCHEMA.migrations,
        {
          version: 2,
          name: 'a step that breaks halfway',
          sql: () => `CREATE TABLE generate_extra (x TEXT);
                      ALTER TABLE generate_runs ADD COLUMN note TEXT;
                      INSERT INTO generate_nowhere VALUES (1);`,
        },
      ],
    };
    assert.throws(() => openStateFile(file, { schema: failing, durability: 'NORMAL' }), {
      message: new RegExp(
        `^cannot bring ${escape(file)} \\(the generate ledger\\) from schema version 1 to 2 \\(a step that breaks halfway\\): no such table: generate_nowhere; it is left at version 1$`,
      ),
    });
    assert.deepEqual(recorded(file), [{ version: 1, name: GENERATE_LEDGER_SCHEMA.migrations[0]!.name }]);
    const db = new Database(file, { readonly: true });
    assert.equal(db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'generate_extra'").get(), undefined);
    assert.deepEqual(
      db.prepare('SELECT * FROM generate_runs').all(),
      [{ run: 1, at: '2024-05-01', base_url: 'https://e.com/' }],
      'no column added, the row kept',
    );
    db.close();
    // The same file still opens with this sitemapkit's own migrations.
    assert.ok(new GenerateLedger(file).knows('https://e.com/') === false);
  });

  it('refuses to read a ledger of a newer sitemapkit (submit --from-state) as well', () => {
    const file = generateLedgerPath(dirname(newFile()));
    new GenerateLedger(file).close();
    rawSql(file, "INSERT INTO sitemapkit_schema (version, name, applied_at) VALUES (99, 'from the future', 0)");
    assert.throws(
      () => new GenerateLedgerReader(file),
      /has schema version 99, newer than this sitemapkit knows \(1\)/,
    );
    // submit --from-state says why, not that there is no ledger.
    const submissions = new SubmissionLedger(join(dir, 'submissions.sqlite'));
    const run = submissions.beginRun(new Date(), 'test', 'https://indexnow.example/', true);
    assert.throws(() => observeGenerateLedger(dirname(file), { ledger: submissions, run }), {
      message: new RegExp(`^${escape(file)} \\(the generate ledger\\) has schema version 99`),
    });
    submissions.close();
  });

  it('is migrated once when several processes open a new file at once', async () => {
    const file = generateLedgerPath(dirname(newFile()));
    // The built library, as a process of sitemapkit loads it.
    const ledgerModule = pathToFileURL(join(REPO_DIR, 'dist/src/store/generate-ledger.js')).href;
    const open = `const { GenerateLedger } = await import(${JSON.stringify(ledgerModule)});
      new GenerateLedger(${JSON.stringify(file)}).close();`;
    const exits = await Promise.all(
      [1, 2, 3].map(() => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', open], {
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        return new Promise<string>((resolve) => child.on('exit', (code) => resolve(`${code} ${stderr}`)));
      }),
    );
    assert.deepEqual(exits, ['0 ', '0 ', '0 ']);
    assert.deepEqual(recorded(file), [{ version: 1, name: GENERATE_LEDGER_SCHEMA.migrations[0]!.name }]);
  });

  it('says so through the CLI: generate --state with a ledger of version 99 exits 1, naming the file', async () => {
    const work = join(dir, 'cli');
    mkdirSync(work);
    writeFileSync(join(work, 'urls.txt'), 'https://www.example.com/a\n');
    const state = join(work, 'state');
    const args = [
      'generate',
      join(work, 'urls.txt'),
      '--base-url',
      'https://www.example.com/',
      '--out',
      join(work, 'out'),
    ];
    const first = await runCli([...args, '--state', state]);
    assert.equal(first.code, 0, first.stderr);
    const ledger = generateLedgerPath(state);
    rawSql(ledger, "INSERT INTO sitemapkit_schema (version, name, applied_at) VALUES (99, 'from the future', 0)");
    const second = await runCli([...args, '--state', state]);
    assert.equal(second.code, 1, second.stderr);
    assert.match(
      second.stderr,
      new RegExp(
        `^sitemapkit generate: ${escape(ledger)} \\(the generate ledger\\) has schema version 99, newer than this sitemapkit knows \\(1\\): it was written by a newer sitemapkit; upgrade sitemapkit to use it, or move it away`,
        'm',
      ),
    );
  });
});

describe("a state file to work in (an audit's crawl state)", () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-keep-or-discard-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const CRAWL_STATE = {
    former: { table: 'crawl_urls', what: 'the crawl state' },
    advice: 'audit again without --resume',
  };

  it('keeps a crawl run for a resume, and deletes it with its journal for a fresh start', async () => {
    const file = join(dir, 'kept.sqlite');
    const store = await RunStore.open(file);
    await store.createOrJoin({ name: 'crawl', kind: 'crawl', options: {}, state: 'starting' }, [], { concurrency: 1 });
    await store.close();
    writeFileSync(`${file}-wal`, '');
    assert.equal(keepOrDiscardStateFile(file, { fresh: false, ...CRAWL_STATE }), file);
    const resumed = await RunStore.open(file);
    assert.ok((await resumed.run('crawl')) !== undefined, 'the run is there to continue');
    await resumed.close();
    keepOrDiscardStateFile(file, { fresh: true, ...CRAWL_STATE });
    assert.deepEqual([existsSync(file), existsSync(`${file}-wal`)], [false, false]);
  });

  it("refuses to resume an earlier sitemapkit's crawl state, naming the file and what to do", () => {
    const file = join(dir, 'former.sqlite');
    const db = new Database(file);
    db.exec('CREATE TABLE crawl_urls (seq INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE)');
    db.close();
    assert.throws(
      () => keepOrDiscardStateFile(file, { fresh: false, ...CRAWL_STATE }),
      (error: Error) =>
        error.message.includes(file) &&
        /earlier sitemapkit/.test(error.message) &&
        /audit again without --resume/.test(error.message),
    );
    keepOrDiscardStateFile(file, { fresh: true, ...CRAWL_STATE });
    assert.equal(existsSync(file), false);
  });
});
