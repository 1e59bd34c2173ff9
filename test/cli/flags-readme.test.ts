/**
 * The README's flag tables are made from the commands' flag tables (npm run docs:flags): this
 * fails when a flag is added, changed or removed without writing them again.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { COMMANDS } from '../../src/cli/commands.js';
import { withFlagTables } from '../../src/cli/flags-readme.js';
import { REPO_DIR } from '../helpers/paths.js';

it('README.md holds the flag table of every command, as the tables say (else: npm run docs:flags)', async () => {
  const readme = readFileSync(join(REPO_DIR, 'README.md'), 'utf8');
  const commands = await Promise.all(Object.values(COMMANDS).map((entry) => entry.load()));
  assert.equal(withFlagTables(readme, commands), readme, 'the README flag tables are stale: run npm run docs:flags');
  assert.throws(
    () => withFlagTables('no markers', commands.slice(0, 1)),
    /README\.md has no "<!-- flags:generate -->"/,
  );
});
