#!/usr/bin/env node
/**
 * The `sitemapkit` binary: finds the command, parses its flags, runs it, and turns the outcome
 * into the exit codes of the contract (0 success, 1 input errors or failed work, 2 bad usage).
 */
import { EXIT_FAILED, EXIT_USAGE, UsageError, formatHelp, parseCommandArgs, type Command, type Io } from './command.js';

/** Each command lives in its own module, loaded only when it runs. */
const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  generate: {
    summary: 'URL lists or a build directory → sitemaps (sharded, gzip, index)',
    load: async () => (await import('./generate.js')).command,
  },
  parse: {
    summary: 'a sitemap (file, - or URL) → one JSON entry per line',
    load: async () => (await import('./parse.js')).command,
  },
  validate: {
    summary: 'check sitemaps against every rule of the protocol and the engines',
    load: async () => (await import('./validate.js')).command,
  },
  tree: {
    summary: "read a site's whole sitemap tree from robots.txt and well-known locations",
    load: async () => (await import('./tree.js')).command,
  },
  crawl: { summary: 'crawl a site and write its sitemaps', load: async () => (await import('./crawl.js')).command },
  run: {
    summary: 'progress of a run shared by workers (run status), its outputs again (run finish)',
    load: async () => (await import('./run.js')).command,
  },
  rules: {
    summary: 'the rule catalog: what each code means and how to fix it',
    load: async () => (await import('./rules.js')).command,
  },
};

function mainHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `sitemapkit: generate, parse, validate and discover sitemaps (sitemaps.org 0.9 and extensions)

Usage: sitemapkit <command> [options]

Commands:
${lines.join('\n')}

Run "sitemapkit <command> --help" for the options of a command.
Exit codes: 0 success, 1 the input has errors or the work failed, 2 bad usage.
`;
}

export async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout).write(mainHelp());
    return name === undefined ? EXIT_USAGE : 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${(await import('../version.js')).VERSION}\n`);
    return 0;
  }
  const entry = COMMANDS[name];
  if (!entry) {
    io.stderr.write(`sitemapkit: unknown command "${name}"\n\n${mainHelp()}`);
    return EXIT_USAGE;
  }
  const command = await entry.load();
  try {
    const args = parseCommandArgs(command.spec, rest);
    if (args.values.help === true) {
      io.stdout.write(formatHelp(command.spec));
      return 0;
    }
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`sitemapkit ${name}: ${error.message}\n`);
      return EXIT_USAGE;
    }
    io.stderr.write(`sitemapkit ${name}: ${(error as Error).message}\n`);
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
