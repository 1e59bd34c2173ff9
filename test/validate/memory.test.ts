/**
 * Memory stays bounded on any input (issue 10 §4): a never-ending urlset of distinct URLs, piped
 * into a validating child process, ends at the parser's 200 MiB cap with the URL set's budget
 * spent on the way (LIMIT-004), and the child's peak RSS stays under 400 MB. Before the budget,
 * the URL set alone grew to 944 MB on this input.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MAX_REMEMBERED_URLS } from '../../src/validate/duplicates.js';

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
