import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useColor, type Io } from '../../src/cli/command.js';
import { painter } from '../../src/report/paint.js';

test('the reports paint with one set of styles, only when colour is on, and never empty text', () => {
  assert.equal(painter(true)('error', 'bad'), '\u001b[31mbad\u001b[0m');
  assert.equal(painter(true)('ok', 'fine'), '\u001b[32mfine\u001b[0m');
  assert.equal(painter(true)('dim', ''), '');
  assert.equal(painter(false)('error', 'bad'), 'bad');
});

test('colour is on for a terminal, and off when NO_COLOR is set or stdout is no terminal', () => {
  const io = (isTerminal: boolean) => ({ isTerminal }) as Io;
  const saved = process.env.NO_COLOR;
  try {
    delete process.env.NO_COLOR;
    assert.equal(useColor(io(true)), true);
    assert.equal(useColor(io(false)), false);
    process.env.NO_COLOR = '1';
    assert.equal(useColor(io(true)), false);
  } finally {
    if (saved === undefined) delete process.env.NO_COLOR;
    else process.env.NO_COLOR = saved;
  }
});
