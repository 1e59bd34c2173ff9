import assert from 'node:assert/strict';
import { test } from 'node:test';
import { forTerminal, linesForTerminal } from '../../src/core/terminal.js';

test('control characters from outside are shown as visible escapes, never sent to the terminal', () => {
  assert.equal(forTerminal('\u001b[2J\u001b[Hall valid'), '\\x1b[2J\\x1b[Hall valid');
  assert.equal(forTerminal('a\rb\nc\td\u0007'), 'a\\rb\\nc\\td\\x07');
  assert.equal(forTerminal('\u009b31m \u007f'), '\\x9b31m \\x7f');
  assert.equal(forTerminal('\u001b]0;title\u0007'), '\\x1b]0;title\\x07');
  assert.equal(forTerminal('evil\u202etxt.exe'), 'evil\\u202etxt.exe');
});

test('ordinary text, accents and emoji included, is left as it is', () => {
  for (const text of ['https://example.com/a?b=c', 'grüße aus zürich', '✓ 😀 ✗', ''])
    assert.equal(forTerminal(text), text);
});

test('a message of several lines of our own keeps its lines; each line is made safe', () => {
  assert.equal(linesForTerminal("Unknown option '-q'\nRun the help"), "Unknown option '-q'\nRun the help");
  assert.equal(linesForTerminal('a\u001b[2J\nb\rc'), 'a\\x1b[2J\nb\\rc');
});
