/**
 * The README's flag tables, made from the commands' flag tables: each sits between
 * `<!-- flags:NAME -->` and `<!-- /flags:NAME -->` in README.md. scripts/docs-flags.mjs writes
 * them (npm run docs:flags); test/cli/flags-readme.test.ts fails when they drift apart.
 */
import type { Command } from './command.js';
import { flagsMarkdown } from './flags.js';

/** The flag table of one command, as the README shows it (folded: the section's prose comes first). */
export function readmeFlagBlock(command: Command): string {
  const { name, flags } = command.spec;
  return [
    `<details><summary>Every flag of <code>sitemapkit ${name}</code> (from <code>sitemapkit ${name} --help</code>)</summary>`,
    '',
    flagsMarkdown(flags),
    '',
    '</details>',
  ].join('\n');
}

/**
 * `readme` with the block of every command written between its markers; a command without
 * markers is an error naming them, so a new command cannot go undocumented.
 */
export function withFlagTables(readme: string, commands: readonly Command[]): string {
  let text = readme;
  for (const command of commands) {
    const { name } = command.spec;
    const start = `<!-- flags:${name} -->`;
    const end = `<!-- /flags:${name} -->`;
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from < 0 || to < from)
      throw new Error(`README.md has no "${start}" … "${end}" markers: put them in the section of ${name}`);
    text = `${text.slice(0, from + start.length)}\n${readmeFlagBlock(command)}\n${text.slice(to)}`;
  }
  return text;
}
