// Writes the flag tables of README.md from the commands' flag tables (src/cli/flags.ts, built
// into dist/ first). test/cli/flags-readme.test.ts fails when the README and the tables drift apart.
import { readFileSync, writeFileSync } from 'node:fs';
import { COMMANDS } from '../dist/src/cli/commands.js';
import { withFlagTables } from '../dist/src/cli/flags-readme.js';

const readme = new URL('../README.md', import.meta.url);
const commands = await Promise.all(Object.values(COMMANDS).map((entry) => entry.load()));
writeFileSync(readme, withFlagTables(readFileSync(readme, 'utf8'), commands));
console.log(`README.md: flag tables of ${commands.length} commands written`);
