/**
 * Memory stays bounded on any input (issue 10 §4): a never-ending urlset of distinct URLs, piped
 * into a validating child process, ends at the parser's 200 MiB cap with the URL set's budget
 * spent on the way (LIMIT-004), and the child's peak RSS stays under 400 MB. Before the budget,
 * the URL set alone grew to 944 MB on this input. And the problems a run holds to show are bounded,
 * however many there are: in one document, or across thousands.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MAX_REMEMBERED_URLS } from '../../src/validate/duplicates.js';
import type { ValidationResult } from '../../src/validate/types.js';
import { runCli } from '../helpers/cli.js';

const CHILD = fileURLToPath(new URL('./memory-child.mjs', import.meta.url));
const MAX_RSS_BYTES = 400 * 1_000_000;

test('validate of a never-ending stream stays under 400 MB and says where it stopped remembering URLs', async () => {
  const child = spawn(process.execPath, [CHILD], { stdio: ['pipe', 'pipe', 'inherit'] });
  const output: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));

  // Writes distinct URLs for as long as the child reads; it stops reading at its 200 MiB cap.
  child.stdin.on('error', () => undefined); // EPIPE once the child has stopped reading
  child.stdin.write(
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
  );
  let next = 0;
  const writeMore = (): void => {
    while (!child.stdin.destroyed && child.exitCode === null) {
      let chunk = '';
      for (let i = 0; i < 2000; i++, next++) chunk += `<url><loc>https://www.example.com/page/${next}</loc></url>\n`;
      if (!child.stdin.write(chunk)) return void child.stdin.once('drain', writeMore);
    }
  };
  writeMore();

  assert.equal(await exited, 0);
  const { urls, codes, maxRssKiB } = JSON.parse(Buffer.concat(output).toString('utf8')) as {
    urls: number;
    codes: string[];
    maxRssKiB: number;
  };
  assert.ok(urls > MAX_REMEMBERED_URLS, `${urls} URLs read: past the URL set's budget`);
  assert.deepEqual(codes, ['FETCH-006', 'LIMIT-004', 'URL-009'], 'the cap, the budget, and the 50,000-URL limit');
  assert.ok(maxRssKiB * 1024 < MAX_RSS_BYTES, `peak RSS ${Math.round(maxRssKiB / 1024)} MiB`);
});

test('validate showing every problem (--max-per-rule 0) of a document with one in each entry stays under 400 MB', async () => {
  // 64 MiB, a bad lastmod in each of its 700,000 URLs: held whole, their diagnostics took 1.5 GB.
  const head = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
  const lines: string[] = [];
  let bytes = head.length;
  while (bytes < 64 * 1024 * 1024) {
    const n = lines.length;
    const line = `<url><loc>https://www.example.com/page/${n}</loc><lastmod>bad ${n}</lastmod></url>\n`;
    lines.push(line);
    bytes += line.length;
  }
  const input = `${head}${lines.join('')}</urlset>\n`;
  const total = lines.length.toLocaleString('en-US');
  for (const json of [false, true]) {
    const run = await runCli(['validate', '-', '--max-per-rule', '0', ...(json ? ['--json'] : [])], {
      input,
      measureUsage: true,
    });
    assert.equal(run.code, 1, run.stderr);
    assert.ok(run.usage!.peakMemory < MAX_RSS_BYTES, `peak memory ${Math.round(run.usage!.peakMemory / 1e6)} MB`);
    if (json) {
      const result = JSON.parse(run.stdout) as ValidationResult;
      assert.equal(result.errors, lines.length + 1);
      assert.equal(result.diagnostics.length + result.omitted!, result.errors);
      assert.ok(
        result.diagnostics.some((d) => d.code === 'URL-009'),
        'a problem met late is still shown',
      );
    } else {
      assert.match(run.stdout, /\n-:\d+:\d+: error URL-009 /, 'a problem met late is still shown');
      assert.match(run.stdout, /\n-: … [\d,]+ more problems not shown \(a run holds 20,000 of each severity/);
      assert.ok(
        run.stdout.endsWith(
          `\n-: urlset, ${total} URLs, ${(lines.length + 1).toLocaleString('en-US')} errors, 0 warnings: invalid\n`,
        ),
      );
    }
  }
});

test('a run of many sources holds 20,000 problems of each severity in all, and counts every one', async () => {
  // An index of 1,200 children with 40 errors each (two codes): 48,000 held before, 2.4 per child.
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-many-'));
  try {
    const children = 1_200;
    const origin = 'https://www.example.com';
    const locs = Array.from({ length: children }, (_, i) => `${origin}/s${i}.xml`);
    writeFileSync(
      join(dir, 'index.xml'),
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`).join('')}</sitemapindex>`,
    );
    for (let i = 0; i < children; i++) {
      const urls = Array.from(
        { length: 20 },
        (_, j) => `<url><loc>${origin}/p${i}-${j}</loc><lastmod>bad</lastmod><priority>7</priority></url>`,
      );
      writeFileSync(
        join(dir, `s${i}.xml`),
        `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>`,
      );
    }
    const args = ['validate', '-r', join(dir, 'index.xml'), '--location', `${origin}/index.xml`];
    const json = await runCli([...args, '--json']);
    assert.equal(json.code, 1, json.stderr);
    const results = json.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as ValidationResult);
    assert.equal(results.length, children + 1);
    const held = results.reduce((sum, result) => sum + result.diagnostics.length, 0);
    assert.ok(held <= 20_000 + 2 * 20, `${held} problems held`);
    for (const result of results.slice(1)) {
      assert.equal(result.errors, 40, result.source);
      assert.equal(result.diagnostics.length + (result.omitted ?? 0), 40, result.source);
    }

    const text = await runCli(args);
    assert.equal(text.code, 1, text.stderr);
    const shown = text.stdout.split('\n').filter((line) => / {2}error {4}(DATE|PRIO)-001 /.test(line)).length;
    assert.ok(shown <= 20_000 + 2 * 20, `${shown} problems shown`);
    assert.match(text.stdout, /\/s1199\.xml: … 40 more problems not shown \(a run holds 20,000 of each severity/);
    assert.match(text.stdout, /\n1,201 sources, 24,000 URLs, 48,000 errors, 0 warnings: 1200 invalid\n$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
