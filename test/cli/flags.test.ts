/**
 * The flag tables (src/cli/flags.ts): typed values with their defaults, usage errors that name
 * the flag and what it takes, --help lines aligned and wrapped with defaults shown.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageError, formatHelp, parseCommandArgs, type CommandSpec } from '../../src/cli/command.js';
import { defineFlags, formatFlagSections, type FlagTable } from '../../src/cli/flags.js';

const FLAGS = defineFlags({
  'max-items': {
    type: 'integer',
    value: 'N',
    min: 0,
    max: 100,
    maxReason: 'a test limit',
    default: 10,
    group: 'Limits',
    help: 'at most N items',
  },
  wait: { type: 'seconds', value: 'SECONDS', min: 0.001, group: 'Limits', help: 'how long to wait' },
  mode: {
    type: 'choice',
    value: 'MODE',
    choices: ['fast', 'slow'],
    default: 'fast',
    group: 'Limits',
    help: 'how to go',
  },
  include: { type: 'list', value: 'GLOB', group: 'Paths', help: 'repeatable' },
  out: { type: 'string', value: 'DIR', short: 'o', group: 'Paths', help: 'where to write' },
  'dry-run': { type: 'boolean', group: 'Paths', help: 'write nothing' },
  'a-rather-long-flag-name': { type: 'boolean', group: 'Paths', help: 'a label too wide for the column' },
  secret: { type: 'boolean', group: 'Paths', hidden: true, help: 'never listed' },
});

function spec<F extends FlagTable>(flags: F): CommandSpec<F> {
  return { name: 'demo', summary: 'A demo.', usage: 'sitemapkit demo', description: 'Does nothing.', flags };
}

function usageError(argv: string[]): string {
  try {
    parseCommandArgs(spec(FLAGS), argv);
  } catch (error) {
    assert.ok(error instanceof UsageError);
    return error.message;
  }
  assert.fail(`${argv.join(' ')} was accepted`);
}

describe('flag tables', () => {
  it('give typed values by camel-case name, defaults filled in', () => {
    const none = parseCommandArgs(spec(FLAGS), ['x']);
    assert.deepEqual(
      { ...none.flags },
      {
        maxItems: 10,
        wait: undefined,
        mode: 'fast',
        include: [],
        out: undefined,
        dryRun: false,
        aRatherLongFlagName: false,
        secret: false,
      },
    );
    assert.deepEqual(none.positionals, ['x']);
    const given = parseCommandArgs(spec(FLAGS), [
      '--max-items',
      '1_0',
      '--wait',
      '0.5',
      '--mode',
      'slow',
      '--include',
      'a',
      '--include',
      'b',
      '-o',
      'd',
      '--dry-run',
    ]);
    const typed: number = given.flags.maxItems;
    assert.equal(typed, 10);
    assert.deepEqual(
      [given.flags.wait, given.flags.mode, given.flags.include, given.flags.out, given.flags.dryRun],
      [0.5, 'slow', ['a', 'b'], 'd', true],
    );
  });

  it('turn a bad value into a usage error naming the flag and what it takes', () => {
    assert.equal(usageError(['--mode', 'quick']), '--mode must be fast or slow, not "quick"');
    assert.equal(usageError(['--max-items', 'many']), '--max-items must be a whole number of at least 0, not "many"');
    assert.equal(usageError(['--max-items', '101']), '--max-items may be at most 100 (a test limit), not 101');
    assert.equal(usageError(['--wait', '0']), '--wait must be a number of seconds above 0, not "0"');
    assert.match(usageError(['--dry-rn']), /Unknown option '--dry-rn': did you mean --dry-run\?/);
  });

  it('judge no value when --help is asked for', () => {
    const parsed = parseCommandArgs(spec(FLAGS), ['--mode', 'quick', '--help']);
    assert.equal(parsed.help, true);
  });

  it('print grouped, aligned, wrapped help lines with their defaults, hidden flags left out', () => {
    const text = formatFlagSections(FLAGS, { Paths: '  A note under the paths.' });
    assert.equal(
      text,
      `Limits:
  --max-items N          at most N items (default 10)
  --wait SECONDS         how long to wait
  --mode MODE            how to go (default fast)

Paths:
  --include GLOB         repeatable
  -o, --out DIR          where to write
  --dry-run              write nothing
  --a-rather-long-flag-name
                         a label too wide for the column
  A note under the paths.`,
    );
    const long = formatFlagSections(
      defineFlags({ words: { type: 'string', value: 'W', default: 'x', group: 'G', help: 'word '.repeat(30).trim() } }),
    );
    const lines = long.split('\n').slice(1);
    assert.ok(lines.length > 1);
    for (const line of lines) assert.ok(line.length <= 100, line);
    for (const line of lines.slice(1)) assert.match(line, /^ {25}\S/);
    assert.match(long, /\(default x\)$/, 'a default is never split from its value');
  });

  it('end the help with the exit codes, with --fail-on only where the command has it', () => {
    assert.match(formatHelp(spec(FLAGS)), /\n {2}1 {2}the work failed\n/);
    const withFailOn = defineFlags({
      'fail-on': { type: 'choice', value: 'LEVEL', choices: ['error'], group: 'P', help: 'h' },
    });
    assert.match(formatHelp(spec(withFailOn)), /a problem at or above --fail-on/);
  });
});
