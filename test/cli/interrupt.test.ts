import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listenForInterruption } from '../../src/cli/interrupt.js';

for (const name of ['SIGINT', 'SIGTERM'] as const) {
  test(`${name} aborts the work once, names the signal, and stops listening`, () => {
    const before = process.listenerCount(name);
    const seen: string[] = [];
    const interruption = listenForInterruption((signal) => seen.push(signal));
    assert.equal(process.listenerCount(name), before + 1);
    process.emit(name, name);
    assert.equal(interruption.signal.aborted, true);
    assert.equal(interruption.signal.reason, `interrupted by ${name}`);
    assert.deepEqual(seen, [name]);
    assert.equal(process.listenerCount(name), before, 'the handler removed itself');
    interruption.dispose();
  });
}

test('dispose removes both listeners', () => {
  const before = process.listenerCount('SIGINT') + process.listenerCount('SIGTERM');
  listenForInterruption().dispose();
  assert.equal(process.listenerCount('SIGINT') + process.listenerCount('SIGTERM'), before);
});
