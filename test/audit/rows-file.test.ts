/** `--rows`: one name for each field, in the JSON rows, the CSV header and the README alike. */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { AuditRow } from '../../src/audit/rows.js';
import { CSV_COLUMNS, openRowsFile } from '../../src/report/audit-rows.js';
import { REPO_DIR } from '../helpers/paths.js';

const scratch = await mkdtemp(join(tmpdir(), 'sitemapkit-rows-'));
after(() => rm(scratch, { recursive: true, force: true }));

const ROW: Required<AuditRow> = {
  url: 'https://www.example.com/old',
  listed: false,
  sitemap: 'https://www.example.com/sitemap.xml',
  line: 3,
  status: 301,
  finalUrl: 'https://www.example.com/new',
  finalStatus: 200,
  targetListed: true,
  contentType: 'text/html',
  indexable: false,
  findings: ['redirect'],
  lastmod: '2024-05-01',
  lastModified: '2024-05-02T00:00:00Z',
  pageModified: '2024-05-03T00:00:00Z',
  canonical: 'https://www.example.com/new',
  duplicateOf: 'https://www.example.com/',
  details: { redirect: 'HTTP 301 to https://www.example.com/new' },
};

test('the CSV columns are the JSON rows’ field names, and the README names each', async () => {
  const jsonl = join(scratch, 'rows.jsonl');
  const csv = join(scratch, 'rows.csv');
  for (const path of [jsonl, csv]) {
    const file = openRowsFile(path);
    await file.write(ROW);
    await file.close();
  }
  const fields = Object.keys(JSON.parse((await readFile(jsonl, 'utf8')).trim()) as object);
  const header = (await readFile(csv, 'utf8')).split('\n')[0]!.split(',');
  assert.deepEqual([...header].sort(), [...fields].sort());
  assert.deepEqual(header, [...CSV_COLUMNS]);
  const readme = await readFile(join(REPO_DIR, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('- One row per listed URL (`--rows FILE`'));
  for (const field of fields) assert.ok(section.slice(0, 800).includes(`\`${field}\``), `README names ${field}`);
});
