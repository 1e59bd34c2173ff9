#!/usr/bin/env node
/**
 * The `sitemapkit` binary: finds the command, parses its flags, runs it, and turns the outcome
 * into the exit codes of the policy (src/cli/problem-options.ts): 0 done, 1 problems at or above
 * --fail-on or failed work, 2 bad usage.
 */
// First, so that its settings hold for every module loaded after it.
import './v8-tuning.js';
import { forTerminal, linesForTerminal } from '../core/terminal.js';
import { COMMANDS } from './commands.js';
import {
  EXIT_FAILED,
  EXIT_USAGE,
  UsageError,
  closest,
  exitCodesHelp,
  formatHelp,
  parseCommandArgs,
  type Io,
} from './command.js';

function mainHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `sitemapkit: generate, parse, validate and discover sitemaps (sitemaps.org 0.9 and extensions)

Usage: sitemapkit <command> [options]
       sitemapkit help <command>
       sitemapkit --version

Commands:
${lines.join('\n')}

Options:
  -h, --help     this help; "sitemapkit <command> --help" gives the options of a command
  -v, --version  print the version of sitemapkit

Every command that reads a sitemap takes - for standard input.

${exitCodesHelp(true)}
`;
}

export async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
    (name === undefined ? io.stderr : io.stdout).write(mainHelp());
    return name === undefined ? EXIT_USAGE : 0;
  }
  // "sitemapkit help generate" is "sitemapkit generate --help", as in git.
  if (name === 'help') return main([rest[0]!, '--help'], io);
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${(await import('../version.js')).VERSION}\n`);
    return 0;
  }
  const entry = COMMANDS[name];
  if (!entry) {
    const near = closest(name, Object.keys(COMMANDS));
    io.stderr.write(
      `sitemapkit: unknown command "${name}"${near === undefined ? '' : `: did you mean "sitemapkit ${near}"?`}\n\n${mainHelp()}`,
    );
    return EXIT_USAGE;
  }
  const command = await entry.load();
  try {
    const args = parseCommandArgs(command.spec, rest);
    if (args.help) {
      io.stdout.write(formatHelp(command.spec));
      return 0;
    }
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`sitemapkit ${name}: ${linesForTerminal(error.message)}\n`);
      return EXIT_USAGE;
    }
    io.stderr.write(`sitemapkit ${name}: ${forTerminal((error as Error).message)}\n`);
    if (process.env.SITEMAPKIT_DEBUG) io.stderr.write(`${(error as Error).stack}\n`);
    return EXIT_FAILED;
  }
}

const io: Io = {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  isTerminal: Boolean(process.stdout.isTTY),
  stderrIsTerminal: Boolean(process.stderr.isTTY),
};

// A closed pipe (sitemapkit parse big.xml | head) ends the program quietly, as Unix tools do.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

main(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`sitemapkit: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = EXIT_FAILED;
  },
);
