import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatNumber } from '../../src/report/format.js';

test('numbers are grouped by thousands with commas, as en-US writes them', () => {
  for (const n of [0, 7, 999, 1000, 12345, 50_000, 52_428_800, -1234567, Number.MAX_SAFE_INTEGER, 1.5, 1234.5678, 1e21])
    assert.equal(formatNumber(n), n.toLocaleString('en-US'), String(n));
});
