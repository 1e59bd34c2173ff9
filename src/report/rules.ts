/**
 * The rule catalog (core/catalog.ts) rendered for people: a list and one rule in full for the
 * terminal (`sitemapkit rules`), JSON lines for machines, and Markdown for docs/rules.md.
 */
import { FAMILIES, RULES, familyOf, type RuleInfo } from '../core/catalog.js';

export interface DescribedRule extends RuleInfo {
  code: string;
  family: string;
}

/** Every rule, in catalog order, with its code and family. */
export function catalogRules(): DescribedRule[] {
  return Object.entries(RULES).map(([code, rule]) => ({ code, family: familyOf(code), ...rule }));
}

/**
 * The rules a user asked for: a code in any case ("url-001"), or a family prefix ("VID") for
 * all its rules. Undefined when nothing matches.
 */
export function findRules(query: string): DescribedRule[] | undefined {
  const wanted = query.trim().toUpperCase();
  const rules = catalogRules();
  const exact = rules.filter((rule) => rule.code === wanted);
  if (exact.length > 0) return exact;
  const family = rules.filter((rule) => rule.code.slice(0, rule.code.indexOf('-')) === wanted);
  return family.length > 0 ? family : undefined;
}

/** One line per rule, under its family's title: code, severity, title. */
export function formatRuleList(rules: readonly DescribedRule[]): string {
  const width = Math.max(...rules.map((rule) => rule.code.length));
  let text = '';
  let family: string | undefined;
  for (const rule of rules) {
    if (rule.family !== family) {
      text += `${family === undefined ? '' : '\n'}${rule.family}\n`;
      family = rule.family;
    }
    text += `  ${rule.code.padEnd(width)}  ${severities(rule).padEnd(13)}  ${rule.title}\n`;
  }
  return text;
}

/** One rule in full: what it is, why it matters, how to fix it. */
export function formatRule(rule: DescribedRule, columns = 100): string {
  return [
    `${rule.code} (${severities(rule)}): ${rule.title}`,
    `${rule.family}`,
    '',
    ...(rule.also ?? []).flatMap((other) =>
      wrap(`A ${other.severity} ${other.when}.`, columns - 2)
        .map((line) => `  ${line}`)
        .concat(''),
    ),
    'Why it matters:',
    ...wrap(rule.why, columns - 2).map((line) => `  ${line}`),
    '',
    'How to fix it:',
    ...wrap(rule.fix, columns - 2).map((line) => `  ${line}`),
    '',
  ].join('\n');
}

export function ruleToJsonLine(rule: DescribedRule): string {
  const { code, severity, also, title, family, why, fix } = rule;
  return `${JSON.stringify({ code, severity, ...(also ? { also } : {}), title, family, why, fix })}\n`;
}

/** docs/rules.md: every family, every rule, from the catalog alone. */
export function rulesMarkdown(): string {
  const rules = catalogRules();
  const lines = [
    '# Rule catalog',
    '',
    '<!-- Generated from src/core/catalog.ts by `npm run docs:rules`: edit the catalog, not this file. -->',
    '',
    'Every problem sitemapkit reports carries one of these codes, in `validate`, `parse`, `tree`, `generate` and',
    '`crawl` alike. `sitemapkit rules CODE` prints the same text on the command line.',
    '',
    '- **error**: the protocol is broken, or a search engine rejects the file or the entry;',
    '- **warning**: accepted, but likely ignored or harmful, or rejected by one engine;',
    '- **info**: advice.',
    '',
  ];
  for (const { title } of FAMILIES) {
    const members = rules.filter((rule) => rule.family === title);
    if (members.length === 0 || lines.includes(`## ${title}`)) continue;
    lines.push(`## ${title}`, '', '| code | severity | title |', '| --- | --- | --- |');
    for (const rule of members)
      lines.push(`| [${rule.code}](#${rule.code.toLowerCase()}) | ${severities(rule)} | ${rule.title} |`);
    lines.push('');
    for (const rule of members) {
      lines.push(
        `### ${rule.code}`,
        '',
        `**${rule.severity}**: ${rule.title}`,
        '',
        ...(rule.also ?? []).flatMap((other) => [`A **${other.severity}** ${other.when}.`, '']),
        `Why: ${rule.why}`,
        '',
        `Fix: ${rule.fix}`,
        '',
      );
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** The catalog's severity, then the others the code may be reported at ("error/warning"). */
function severities(rule: RuleInfo): string {
  return [rule.severity, ...(rule.also ?? []).map((other) => other.severity)].join('/');
}

/** Words of `text` in lines of at most `width` characters (a longer word gets a line of its own). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}
