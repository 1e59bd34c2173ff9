import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FIRST_READ_BYTES, fileHolds } from '../../src/input/page-files.js';

describe('fileHolds', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-page-files-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const needle = Buffer.from('dateModified');
  /** A file of `size` bytes of filler, with the needle written at `at` when given. */
  const file = (name: string, size: number, at?: number): string => {
    const bytes = Buffer.alloc(size, 'x');
    if (at !== undefined) needle.copy(bytes, at);
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };

  it('finds the needle wherever it stands across the boundary of two reads', () => {
    const boundary = 3 * FIRST_READ_BYTES;
    for (let at = boundary - needle.length; at <= boundary; at++)
      assert.ok(fileHolds(file(`across-${at}.html`, 5 * FIRST_READ_BYTES, at), needle), `at ${at}`);
  });

  it('finds it in the first read, in the short last one, and at the very end', () => {
    assert.ok(fileHolds(file('first.html', 4 * FIRST_READ_BYTES, 10), needle));
    assert.ok(fileHolds(file('last.html', 4 * FIRST_READ_BYTES + 100, 4 * FIRST_READ_BYTES + 50), needle));
    assert.ok(fileHolds(file('end.html', 2 * FIRST_READ_BYTES, 2 * FIRST_READ_BYTES - needle.length), needle));
  });

  it('says no for a file without it: large, empty, or holding only a part of it at a boundary', () => {
    assert.ok(!fileHolds(file('none.html', 6 * FIRST_READ_BYTES + 7), needle));
    assert.ok(!fileHolds(file('empty.html', 0), needle));
    const split = Buffer.alloc(2 * FIRST_READ_BYTES, 'x');
    Buffer.from('dateMod').copy(split, FIRST_READ_BYTES - 7);
    Buffer.from('ified').copy(split, FIRST_READ_BYTES + 3);
    writeFileSync(join(dir, 'split.html'), split);
    assert.ok(!fileHolds(join(dir, 'split.html'), needle));
  });
});
