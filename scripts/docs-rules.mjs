// Writes docs/rules.md from the rule catalog (src/core/catalog.ts, built into dist/ first).
// test/rules/catalog.test.ts fails when the file and the catalog drift apart.
import { writeFileSync } from 'node:fs';
import { rulesMarkdown } from '../dist/src/report/rules.js';

writeFileSync(new URL('../docs/rules.md', import.meta.url), rulesMarkdown());
console.log('docs/rules.md written');
