/**
 * The progress line off a terminal (a CI log, a file, a test's pipe): a plain line every
 * `plainEveryMs`, or none at all when a command asks for none, however long its work takes.
 * The clock is Node's mock clock, so the test waits for nothing.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { mock, test } from 'node:test';
import type { Io } from '../../src/cli/command.js';
import { ProgressLine, type ProgressOptions } from '../../src/cli/progress.js';

/** Updates a progress line every second for a minute, off a terminal; returns what reached stderr. */
function aMinuteOfWork(options: ProgressOptions): string {
  mock.timers.enable({ apis: ['Date'], now: 0 });
  try {
    const stderr = new PassThrough();
    let written = '';
    stderr.on('data', (chunk: Buffer) => (written += chunk.toString()));
    const io = { stderr, stderrIsTerminal: false } as unknown as Io;
    const progress = new ProgressLine(io, options);
    for (let second = 1; second <= 60; second++) {
      mock.timers.tick(1000);
      progress.update(() => `${second} s`);
    }
    progress.clear();
    stderr.end();
    return written;
  } finally {
    mock.timers.reset();
  }
}

test("off a terminal: a plain line every 10 s by default, every plainEveryMs when given, none with 'never'", () => {
  assert.equal(aMinuteOfWork({}), '10 s\n20 s\n30 s\n40 s\n50 s\n60 s\n');
  assert.equal(aMinuteOfWork({ plainEveryMs: 30_000 }), '30 s\n60 s\n');
  assert.equal(aMinuteOfWork({ plainEveryMs: 'never' }), '');
});
