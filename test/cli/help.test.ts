/**
 * The help a new user reads first: the command list, each command's --help in one shape, the
 * exit codes stated alike everywhere, `help COMMAND`, --version. New commands are checked by
 * being listed: the list is read from `sitemapkit --help` itself.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli, type CliResult } from '../helpers/cli.js';
import { REPO_DIR } from '../helpers/paths.js';

const PACKAGE = JSON.parse(readFileSync(join(REPO_DIR, 'package.json'), 'utf8')) as {
  version: string;
};

/** `sitemapkit --help`, run once for the file. */
let mainHelp: Promise<CliResult> | undefined;
const runMainHelp = (): Promise<CliResult> => (mainHelp ??= runCli(['--help']));

/** name → summary, as `sitemapkit --help` lists them. */
async function listedCommands(): Promise<Map<string, string>> {
  const { stdout } = await runMainHelp();
  const list = stdout.split('\nCommands:\n')[1]!.split('\n\n')[0]!;
  return new Map(list.split('\n').map((line) => /^ {2}(\S+) +(.+)$/.exec(line)!.slice(1, 3) as [string, string]));
}

/** Each command's `--help`, run once for the file: the tests read the same text. */
const helps = new Map<string, Promise<CliResult>>();
function helpOf(name: string): Promise<CliResult> {
  if (!helps.has(name)) helps.set(name, runCli([name, '--help']));
  return helps.get(name)!;
}

describe('sitemapkit --help', () => {
  it('lists the commands, help COMMAND, --version and the exit codes', async () => {
    const { code, stdout } = await runMainHelp();
    assert.equal(code, 0);
    assert.match(stdout, /^ {7}sitemapkit help <command>$/m);
    assert.match(stdout, /^ {2}-v, --version {2}print the version of sitemapkit$/m);
    assert.match(stdout, /Exit codes \(the same for every sitemapkit command\):\n {2}0 {2}/);
    assert.ok((await listedCommands()).size >= 6);
  });

  it('--version prints the version of the package', async () => {
    for (const flag of ['--version', '-v']) {
      const { code, stdout } = await runCli([flag]);
      assert.equal(code, 0);
      assert.equal(stdout, `${PACKAGE.version}\n`);
    }
  });

  it('no command is bad usage: the help goes to stderr with exit 2; so does an unknown command', async () => {
    const none = await runCli([]);
    assert.equal(none.code, 2);
    assert.equal(none.stdout, '');
    assert.match(none.stderr, /^Commands:$/m);
    const unknown = await runCli(['help', 'generat']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^sitemapkit: unknown command "generat"/);
  });
});

describe('each command’s --help', () => {
  it('says the summary the list says, as one capitalised sentence, and ends with the exit codes', async () => {
    for (const [name, summary] of await listedCommands()) {
      const { code, stdout } = await helpOf(name);
      assert.equal(code, 0, name);
      // A usage of several forms goes on in lines indented under the first.
      const [usage, ...rest] = stdout.split('\n');
      const [blank, line] = rest.filter((text) => !text.startsWith(`       sitemapkit ${name} `));
      assert.match(usage!, new RegExp(`^Usage: sitemapkit ${name}\\b`), name);
      assert.equal(blank, '', name);
      assert.equal(line, summary, `${name}: the summary under the usage line is the one "sitemapkit --help" lists`);
      assert.match(summary, /^[A-Z].*\.$/, `${name}: a capitalised sentence`);
      assert.match(
        stdout,
        /\n\nExit codes \(the same for every sitemapkit command\):\n(?: {2}[012] {2}.+\n){3}$/,
        name,
      );
    }
  });

  it('"sitemapkit help COMMAND" prints the help of that command', async () => {
    for (const name of await listedCommands().then((list) => [...list.keys()])) {
      const [viaHelp, viaFlag] = await Promise.all([runCli(['help', name]), helpOf(name)]);
      assert.equal(viaHelp.code, 0, name);
      assert.equal(viaHelp.stdout, viaFlag.stdout, name);
    }
  });

  it('a command that reports problems documents --fail-on and --max-per-rule, and says so in its exit codes', async () => {
    for (const name of ['generate', 'parse', 'validate', 'tree', 'crawl']) {
      const { stdout } = await helpOf(name);
      assert.match(stdout, /--max-per-rule N {7}print at most N problems of each rule code/, name);
      assert.match(stdout, /--fail-on LEVEL {8}the least severe problem that fails the run/, name);
      assert.match(
        stdout,
        / {2}1 {2}a problem at or above --fail-on \(default: error\) was found, or the work failed/,
        name,
      );
    }
  });

  it('a command that fetches documents the same network flags', async () => {
    for (const name of ['parse', 'validate', 'tree', 'crawl']) {
      const { stdout } = await helpOf(name);
      for (const flag of ['--timeout SECONDS', '--retries N', '--max-wait SECONDS', '--user-agent UA'])
        assert.match(stdout, new RegExp(`^ {2}${flag} +\\S`, 'm'), `${name} ${flag}`);
    }
  });

  it('standard input is "-" in every command that reads a sitemap or a list', async () => {
    for (const name of ['generate', 'parse', 'validate']) {
      const { stdout } = await helpOf(name);
      assert.match(stdout, /- for standard input|-\s+standard input/, name);
      assert.doesNotMatch(stdout, /\bstdin\b/, name);
    }
  });

  it('an unknown flag or command is answered with the nearest one, "did you mean", exit 2', async () => {
    const cases: [string[], RegExp][] = [
      [['generate', 'x', '--bse-url', 'y'], /Unknown option '--bse-url': did you mean --base-url\?/],
      [['generate', 'x', '--gizp'], /Unknown option '--gizp': did you mean --gzip\?/],
      [['diff', 'a', 'b', '--check-redirect'], /did you mean --check-redirects\?/],
      [['generat', 'x'], /unknown command "generat": did you mean "sitemapkit generate"\?/],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await runCli(args);
      assert.equal(code, 2, args.join(' '));
      assert.match(stderr, message);
    }
    // The advice is a line of its own, not an escaped "\n" inside the first.
    const { stderr } = await runCli(['crawl', '-Z']);
    assert.deepEqual(stderr.split('\n'), [
      "sitemapkit crawl: Unknown option '-Z'",
      'Run "sitemapkit crawl --help" for usage.',
      '',
    ]);
    const far = await runCli(['generate', 'x', '--zzzzzzzz']);
    assert.equal(far.code, 2);
    assert.doesNotMatch(far.stderr, /did you mean/, 'nothing near: no guess');
  });
});
