/**
 * Every command that fetches (`parse URL`, `validate URL`, `tree URL`), run as a user runs it
 * against each way a server can break HTTP. Each run must end in bounded time and memory (the
 * issue's bounds: 60 s, 400 MB), exit 1 when data was lost (0 when the document was read after
 * all), name the URL and the problem, print no stack trace and no Node warning, and keep every
 * entry that arrived before the break.
 *
 * `--timeout 2` keeps the cases that end by the clock short; with the defaults (60 s) they end
 * the same way. The others run with the defaults, as a user's run does.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SitemapTree } from '../../src/discover/tree.js';
import type { ValidationResult } from '../../src/validate/types.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { hostile, startHostileServer, type Behaviour, type HostileServer } from '../helpers/hostile-server.js';
import { urlset } from '../helpers/site-server.js';

const ORIGIN = 'https://www.example.com';
const BODY = urlset(Array.from({ length: 300 }, (_, i) => `${ORIGIN}/page/${i}`));
/** Bytes of BODY sent before a broken transfer breaks. */
const HALF = Math.floor(BODY.length / 2);
/** Complete `<url>` elements in the first `bytes` of BODY: what a reader can keep. */
const readableIn = (bytes: number) => BODY.slice(0, bytes).split('</url>').length - 1;
/** Every run ends well within this, on a busy machine too (the bound is 60 s; hanging runs took minutes). */
const WITHIN_SECONDS = 45;
/** The memory bound for any run. */
const WITHIN_BYTES = 400 * 1_000_000;
/** CPU time a run to the 200 MiB cap may spend (a few seconds; a quadratic reading took minutes). */
const WITHIN_CPU_SECONDS = 20;

interface Case {
  path: string;
  behaviour: Behaviour;
  /** Entries every command must keep (the complete ones sent before the break). */
  readable: number;
  /** The code reported, and what its message must say (the URL is checked separately). */
  rule?: string;
  problem: RegExp;
  /** 0 when the document is read after all. */
  code: 0 | 1;
  /**
   * What ends the run. `clock`: the deadline, shortened to --timeout 2 to keep the test short.
   * `cap`: the 200 MiB cap, after work for the CPU, whose wall time a busy machine stretches at
   * will: such a run must end by the cap (its --timeout is set far off) within a bounded CPU
   * time. Otherwise the failure itself, with the defaults a user runs with.
   */
  endedBy?: 'clock' | 'cap';
}

const TIMEOUT_FLAGS = { clock: ['--timeout', '2'], cap: ['--timeout', '600'], failure: [] };

const CASES: Case[] = [
  {
    path: '/reset.xml',
    behaviour: hostile.resetMidBody(BODY, HALF),
    readable: readableIn(HALF),
    rule: 'FETCH-001',
    problem: /the connection broke off \((reset|closed by the server)\); the transfer broke off after [\d,]+ bytes/,
    code: 1,
  },
  {
    path: '/short.xml',
    behaviour: hostile.shortBody(BODY, HALF),
    readable: readableIn(HALF),
    rule: 'FETCH-001',
    problem: /the connection broke off \(closed by the server\)/,
    code: 1,
  },
  {
    path: '/chunks.xml',
    behaviour: hostile.brokenChunking(BODY, HALF),
    readable: readableIn(HALF),
    rule: 'FETCH-001',
    problem: /the response breaks the HTTP\/1\.1 protocol/,
    code: 1,
  },
  {
    path: '/trickle.xml',
    behaviour: hostile.trickle(BODY, { intervalMs: 1_000, bytesPerTick: 1 }),
    readable: 0,
    rule: 'FETCH-001',
    problem: /did not finish within 2 s \(--timeout\), retries included/,
    code: 1,
    endedBy: 'clock',
  },
  {
    path: '/slow-headers.xml',
    behaviour: hostile.slowHeaders(1_000),
    readable: 0,
    rule: 'FETCH-001',
    problem: /(did not finish within 2 s|sent no complete response headers in time)/,
    code: 1,
    endedBy: 'clock',
  },
  {
    path: '/never.xml',
    behaviour: hostile.neverAnswers(),
    readable: 0,
    rule: 'FETCH-001',
    problem: /(did not finish within 2 s|sent no complete response headers in time)/,
    code: 1,
    endedBy: 'clock',
  },
  {
    path: '/busy.xml',
    behaviour: hostile.retryAfter(120),
    readable: 0,
    rule: 'FETCH-001',
    problem: /HTTP 503 .*the server asked to wait 120 s, more than the 30 s of waiting left \(--max-wait\)/,
    code: 1,
  },
  {
    path: '/huge-headers.xml',
    behaviour: hostile.headerOverflow(),
    readable: 0,
    rule: 'FETCH-001',
    problem: /response headers too large to read/,
    code: 1,
  },
  {
    path: '/bomb.xml.gz',
    behaviour: hostile.gzipBomb(201, 'file'),
    readable: 0,
    rule: 'FETCH-006',
    problem: /the document is larger than 209715200 bytes \(uncompressed\); reading stopped there/,
    code: 1,
    endedBy: 'cap',
  },
  {
    path: '/bomb-encoded.xml',
    behaviour: hostile.gzipBomb(201, 'content'),
    readable: 0,
    rule: 'FETCH-006',
    problem: /the document is larger than 209715200 bytes \(uncompressed\); reading stopped there/,
    code: 1,
    endedBy: 'cap',
  },
  {
    path: '/as-html.xml',
    behaviour: hostile.servedAsHtml(BODY),
    readable: 300,
    problem: /^/,
    code: 0,
  },
];

/** What each command printed, and how many entries it kept. */
const COMMANDS = {
  parse: {
    args: (url: string) => ['parse', url],
    kept: (run: CliResult) => run.stdout.split('\n').filter((line) => line.startsWith('{')).length,
  },
  validate: {
    args: (url: string) => ['validate', url, '--json'],
    kept: (run: CliResult) => (JSON.parse(run.stdout) as ValidationResult).urls,
  },
  tree: {
    args: (url: string) => ['tree', url, '--json'],
    kept: (run: CliResult) => (JSON.parse(run.stdout) as SitemapTree).totals.urls,
  },
};

describe('every command that fetches, against hostile servers', { concurrency: 6 }, () => {
  let server: HostileServer;
  before(async () => {
    server = await startHostileServer(Object.fromEntries(CASES.map((c) => [c.path, c.behaviour])));
  });
  after(() => server.close());

  for (const [name, command] of Object.entries(COMMANDS)) {
    for (const c of CASES) {
      it(`${name} ${c.path}`, async () => {
        const url = server.url(c.path);
        const started = Date.now();
        const run = await runCli([...command.args(url), ...TIMEOUT_FLAGS[c.endedBy ?? 'failure']], {
          measureUsage: true,
        });
        const seconds = (Date.now() - started) / 1000;
        const output = `${run.stdout}\n${run.stderr}`;
        assert.equal(run.code, c.code, output);
        if (c.endedBy === 'cap')
          assert.ok(run.usage!.cpuSeconds < WITHIN_CPU_SECONDS, `${run.usage!.cpuSeconds} s of CPU`);
        else assert.ok(seconds < WITHIN_SECONDS, `ended after ${seconds.toFixed(1)} s`);
        assert.ok(run.usage!.peakMemory < WITHIN_BYTES, `peak memory ${Math.round(run.usage!.peakMemory / 1e6)} MB`);
        assert.equal(command.kept(run), c.readable, 'every entry sent before the break is kept');
        if (c.code === 1) {
          assert.ok(output.includes(url), `names ${url}:\n${output}`);
          assert.match(output, c.problem);
          if (c.rule) assert.ok(output.includes(c.rule), `reports ${c.rule}`);
        }
        assert.doesNotMatch(output, /\n\s+at .*:\d+:\d+\)?\n/, 'no stack trace');
        assert.doesNotMatch(run.stderr, /Warning|\(node:\d+\)/, 'no Node warning');
      });
    }
  }

  it('parse: a name that does not resolve is said once, not retried', async () => {
    const run = await runCli(['parse', 'http://no-such-host.invalid/sitemap.xml']);
    assert.equal(run.code, 1);
    assert.equal(
      run.stderr, // no "waiting … to retry" line before it
      'http://no-such-host.invalid/sitemap.xml: error FETCH-001 the host no-such-host.invalid does not resolve (ENOTFOUND): check the address\n',
    );
  });

  it('parse: the --max-bytes cap loses data, so it exits 1 (with the entries before it)', async () => {
    const run = await runCli(['parse', server.url('/as-html.xml'), '--max-bytes', String(HALF)]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /FETCH-006/);
    assert.equal(COMMANDS.parse.kept(run), readableIn(HALF));
  });
});
