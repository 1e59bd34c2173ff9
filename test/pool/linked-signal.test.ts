/** LinkedSignal: a signal of its own, aborted by any of its parents until it is released. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LinkedSignal } from '../../src/pool/index.js';

describe('LinkedSignal', () => {
  it('is aborted by either of two parents, with that parent’s reason', () => {
    for (const which of [0, 1]) {
      const parents = [new AbortController(), new AbortController()];
      const linked = new LinkedSignal(parents.map((p) => p.signal));
      assert.equal(linked.signal.aborted, false);
      parents[which]?.abort(new Error(`parent ${which}`));
      assert.equal((linked.signal.reason as Error).message, `parent ${which}`);
    }
  });

  it('starts aborted when a parent already is', () => {
    const parent = new AbortController();
    parent.abort('gone');
    const linked = new LinkedSignal([undefined, new AbortController().signal, parent.signal]);
    assert.equal(linked.signal.reason, 'gone');
  });

  it('once released, hears none of its parents; its siblings still do', () => {
    const first = new AbortController();
    const second = new AbortController();
    const released = new LinkedSignal([first.signal, second.signal]);
    const sibling = new LinkedSignal(first.signal);
    released.release();
    released.release(); // idempotent
    first.abort('stop');
    second.abort('stop');
    assert.equal(released.signal.aborted, false);
    assert.equal(sibling.signal.reason, 'stop');
  });

  it('aborted by one parent, it lets go of the other', () => {
    const first = new AbortController();
    const second = new AbortController();
    const linked = new LinkedSignal([first.signal, second.signal]);
    first.abort('first');
    second.abort('second');
    assert.equal(linked.signal.reason, 'first');
  });
});
