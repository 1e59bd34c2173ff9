/**
 * The vendored corpus stays what its NOTICE says: every case byte for byte as gathered (the manifest's
 * SHA-256), every case named in NOTICE.md with its source, and none of it in the published package.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
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
