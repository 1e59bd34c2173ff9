/** The one batching convention: full batches of N, the rest at the end, never an empty batch. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Batcher, batches } from '../../src/core/batches.js';

/** 1…n, one at a time, as an asynchronous source. */
async function* counting(n: number): AsyncGenerator<number> {
  for (let i = 1; i <= n; i++) yield await Promise.resolve(i);
}

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const value of source) all.push(value);
  return all;
}

test('batches: full arrays of N, then the rest; nothing for an empty source', async () => {
  assert.deepEqual(await collect(batches(counting(7), 3)), [[1, 2, 3], [4, 5, 6], [7]]);
  assert.deepEqual(await collect(batches(counting(6), 3)), [
    [1, 2, 3],
    [4, 5, 6],
  ]);
  assert.deepEqual(await collect(batches(counting(0), 3)), []);
  assert.deepEqual(await collect(batches(['a', 'b'], 5)), [['a', 'b']]);
});

test('Batcher: writes at N and on flush, never an empty batch', () => {
  const written: number[][] = [];
  const batcher = new Batcher<number>(2, (batch) => void written.push(batch));
  for (const n of [1, 2, 3]) batcher.add(n);
  assert.deepEqual(written, [[1, 2]]);
  assert.equal(batcher.pending, 1);
  batcher.flush();
  batcher.flush();
  assert.deepEqual(written, [[1, 2], [3]]);
  assert.equal(batcher.pending, 0);
});

test('Batcher: an asynchronous write is awaited through add and flush', async () => {
  const written: string[][] = [];
  const batcher = new Batcher<string, Promise<void>>(2, async (batch) => {
    await new Promise((resolve) => setImmediate(resolve));
    written.push(batch);
  });
  assert.equal(batcher.add('a'), undefined);
  await batcher.add('b');
  assert.deepEqual(written, [['a', 'b']]);
  assert.equal(batcher.add('c'), undefined);
  await batcher.flush();
  assert.deepEqual(written, [['a', 'b'], ['c']]);
});

test('Batcher: drop hands back what waits, unwritten', () => {
  const written: number[][] = [];
  const batcher = new Batcher<number>(3, (batch) => void written.push(batch));
  batcher.add(1);
  batcher.add(2);
  assert.deepEqual(batcher.drop(), [1, 2]);
  batcher.flush();
  assert.deepEqual(written, []);
});
