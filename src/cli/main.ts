#!/usr/bin/env node
/**
 * The `sitemapkit` binary: finds the command, parses its flags, runs it, and turns the outcome
 * into the exit codes of the policy (src/cli/problem-options.ts): 0 done, 1 problems at or above
 * --fail-on or failed work, 2 bad usage.
 */
import { forTerminal } from '../core/terminal.js';
import {
  EXIT_FAILED,
  EXIT_USAGE,
  UsageError,
  closest,
  exitCodesHelp,
  formatHelp,
  parseCommandArgs,
  type Command,
  type Io,
} from './command.js';

/**
 * Each command lives in its own module, loaded only when it runs. A new command adds one line here;
 * its summary is the one its own --help prints under the usage line (a test holds them equal).
 */
const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  generate: {
    summary: 'Turn URL lists or a build directory into sitemaps: sharded, gzipped, indexed.',
    load: async () => (await import('./generate.js')).command,
  },
  parse: {
    summary: 'Read sitemaps (XML, index, RSS, Atom, text; plain or gzip) as one JSON entry per line.',
    load: async () => (await import('./parse.js')).command,
  },
  validate: {
    summary: 'Check sitemaps against every rule of the protocol and of the search engines.',
    load: async () => (await import('./validate.js')).command,
  },
  tree: {
    summary: "Read a site's whole sitemap tree from robots.txt and well-known locations.",
    load: async () => (await import('./tree.js')).command,
  },
  crawl: {
    summary: 'Crawl a site as a search engine would, and write its sitemaps.',
    load: async () => (await import('./crawl.js')).command,
  },
  audit: {
    summary: 'Check a live site against its sitemaps: every listed URL fetched and judged.',
    load: async () => (await import('./audit.js')).command,
  },
  diff: {
    summary: 'Compare two sets of sitemaps: the URLs added, removed, changed (and moved).',
    load: async () => (await import('./diff.js')).command,
  },
  submit: {
    summary: 'Tell IndexNow what was added, changed or removed since the last submission.',
    load: async () => (await import('./submit.js')).command,
  },
  run: {
    summary: 'Show a run shared by workers (run status), or write its outputs again (run finish).',
    load: async () => (await import('./run.js')).command,
  },
  rules: {
    summary: 'Print the rule catalog: what each code means, why it matters, how to fix it.',
    load: async () => (await import('./rules.js')).command,
  },
};

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
      io.stderr.write(`sitemapkit ${name}: ${forTerminal(error.message)}\n`);
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
