/** The terminal report on its own: order, folding, quiet, colour. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diagnostic } from '../../src/core/diagnostics.js';
import { ValidationReport } from '../../src/report/validation.js';
import type { ValidationResult } from '../../src/validate/types.js';

const result: ValidationResult = {
  source: 'a.xml',
  kind: 'urlset',
  valid: false,
  read: 'whole',
  urls: 4,
  errors: 1,
  warnings: 3,
  infos: 0,
  diagnostics: [],
};
const stream = [
  diagnostic('URL-006', 'listed again', { source: 'a.xml', line: 9, column: 13, url: 'https://e.com/x' }),
  diagnostic('DATE-001', 'bad date', { source: 'a.xml', line: 4, column: 20, url: 'https://e.com/y' }),
  diagnostic('URL-006', 'listed again', { source: 'a.xml', line: 7, column: 13, url: 'https://e.com/z' }),
  diagnostic('URL-006', 'listed again', { source: 'a.xml', line: 12, column: 13, url: 'https://e.com/w' }),
];

test('diagnostics print in document order in the one form, with the entry URL; repeats past the limit are counted', () => {
  const report = new ValidationReport({ maxPerRule: 2, quiet: false, color: false });
  stream.forEach(report.add);
  assert.equal(
    report.render([result]),
    [
      'a.xml:4:20: error DATE-001 bad date (https://e.com/y)',
      'a.xml:7:13: warning URL-006 listed again (https://e.com/z)',
      'a.xml:9:13: warning URL-006 listed again (https://e.com/x)',
      'a.xml: … 1 more URL-006 warning not shown (--max-per-rule 0 shows all)',
      '',
      'a.xml: urlset, 4 URLs, 1 error, 3 warnings: invalid',
      '',
    ].join('\n'),
  );
});

test('quiet keeps errors; colour only when asked; 0 shows everything', () => {
  const quiet = new ValidationReport({ maxPerRule: 0, quiet: true, color: false });
  stream.forEach(quiet.add);
  assert.doesNotMatch(quiet.render([result]), /URL-006/);
  const all = new ValidationReport({ maxPerRule: 0, quiet: false, color: true });
  stream.forEach(all.add);
  const text = all.render([result]);
  assert.equal(text.match(/URL-006/g)?.length, 3);
  // eslint-disable-next-line no-control-regex -- ANSI colour codes start with ESC
  assert.match(text, /\u001b\[31merror/);
  // eslint-disable-next-line no-control-regex -- ANSI colour codes start with ESC
  assert.match(text, /\u001b\[33mwarning/);
});
