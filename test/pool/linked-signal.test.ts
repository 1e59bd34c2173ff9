/** LinkedSignal: a signal of its own, aborted by any of its parents until it is released. */
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
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

  it('down a chain (task, request, attempt), each hears the one above without a listener on it', () => {
    const root = new AbortController();
    const task = new LinkedSignal(root.signal);
    const request = new LinkedSignal([root.signal, task.signal]);
    const attempt = new LinkedSignal(request.signal);
    const dropped = new LinkedSignal(request.signal);
    dropped.release();
    assert.equal(getEventListeners(root.signal, 'abort').length, 1, 'one listener for all the children of root');
    for (const linked of [task, request])
      assert.equal(getEventListeners(linked.signal, 'abort').length, 0, 'a child is kept, not listening');
    root.abort('interrupted');
    for (const linked of [task, request, attempt]) assert.equal(linked.signal.reason, 'interrupted');
    assert.equal(dropped.signal.aborted, false, 'a released child hears nothing');
    assert.equal(getEventListeners(root.signal, 'abort').length, 0);
  });

  it('aborted by its owner, a link aborts those below it, not those above', () => {
    const root = new AbortController();
    const request = new LinkedSignal(root.signal);
    const attempt = new LinkedSignal(request.signal);
    const heard: unknown[] = [];
    attempt.signal.addEventListener('abort', () => heard.push(attempt.signal.reason));
    request.abort('deadline');
    assert.deepEqual(heard, ['deadline'], 'listeners on a link are told as before');
    assert.equal(root.signal.aborted, false);
  });
});
