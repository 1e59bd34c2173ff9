/**
 * The vendored corpus stays what its NOTICE says: every case and every schema byte for byte as
 * gathered (the SHA-256 recorded then), every case named in NOTICE.md with its source, and every
 * source project with its licence. (standalone.test.ts keeps it out of the published package.)
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadManifest, rawBytesOf } from '../helpers/conformance.js';
import { CONFORMANCE_DIR } from '../helpers/paths.js';

const notice = readFileSync(join(CONFORMANCE_DIR, '../NOTICE.md'), 'utf8');

test('every case is kept byte for byte (the SHA-256 recorded when the corpus was built)', () => {
  const cases = loadManifest();
  assert.ok(cases.length > 100);
  for (const c of cases) {
    const recorded = (c as { checks?: { sha256?: string } }).checks?.sha256;
    assert.ok(recorded, `${c.id}: no recorded SHA-256`);
    assert.equal(createHash('sha256').update(rawBytesOf(c)).digest('hex'), recorded, c.id);
  }
});

test('NOTICE.md names the source of every case', () => {
  for (const c of loadManifest()) assert.ok(notice.includes(`\`${c.file}\``), `${c.file} is not in NOTICE.md`);
});

test('NOTICE.md names each source project with the commit the cases came from and its licence', () => {
  const rows = notice.split('\n').filter((line) => line.startsWith('| '));
  const projects = new Map(loadManifest().map((c) => [c.source_repo, c.source_commit]));
  assert.ok(projects.size >= 5, `${projects.size} source projects`);
  for (const [repo, commit] of projects) {
    const row = rows.find((line) => line.includes(repo.includes('/') ? `github.com/${repo} @ ${commit}` : repo));
    assert.ok(row, `${repo} @ ${commit} has no row in NOTICE.md`);
    const licence = row.split('|').at(-2)!.trim();
    assert.match(licence, /\S/, `${repo}: no licence named`);
  }
});

test('every schema is named in xsd/SOURCES.md with its origin, and kept byte for byte', () => {
  const xsdDir = join(CONFORMANCE_DIR, 'xsd');
  const sources = readFileSync(join(xsdDir, 'SOURCES.md'), 'utf8');
  const schemas = readdirSync(xsdDir, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.xsd'));
  assert.ok(schemas.length >= 10);
  for (const file of schemas) {
    const row = sources.split('\n').find((line) => line.startsWith(`| \`${file}\` |`));
    assert.ok(row, `${file} is not in SOURCES.md`);
    if (row.includes('written for this corpus')) continue;
    const recorded = new RegExp(`^- \`${file}\`: \`([0-9a-f]{64})\`$`, 'm').exec(sources)?.[1];
    assert.ok(recorded, `${file}: no SHA-256 in SOURCES.md`);
    assert.equal(
      createHash('sha256')
        .update(readFileSync(join(xsdDir, file)))
        .digest('hex'),
      recorded,
      file,
    );
  }
});
