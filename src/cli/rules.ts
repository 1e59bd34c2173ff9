/** `sitemapkit rules [CODE…]`: the rule catalog, from core/catalog.ts. Flags and printing only. */
import { catalogRules, findRules, formatRule, formatRuleList, ruleToJsonLine } from '../report/rules.js';
import { EXIT_OK, UsageError, defineCommand } from './command.js';
import { defineFlags } from './flags.js';

const FLAGS = defineFlags({
  json: {
    type: 'boolean',
    group: 'Options',
    help: 'one JSON object per rule per line: {code, severity, also?, title, family, why, fix}; also: the other severities the code is reported at, and when',
  },
});

export const command = defineCommand({
  spec: {
    name: 'rules',
    summary: 'Print the rule catalog: what each code means, why it matters, how to fix it.',
    usage: 'sitemapkit rules [CODE…] [--json]',
    description: `
Without CODE, every rule is listed: code, severity and title, by family. With a CODE (in any
case, e.g. url-001), that rule is printed in full: why it matters and how to fix it. A family
prefix (URL, VID, NEWS …) prints every rule of the family in full. The catalog is also in
docs/rules.md.`,
    flags: FLAGS,
    epilogue: `
Examples:
  sitemapkit rules
  sitemapkit rules DATE-005
  sitemapkit rules HREF --json`,
  },

  run(args, io) {
    const rules = args.positionals.length === 0 ? catalogRules() : args.positionals.flatMap(lookUp);
    if (args.flags.json) io.stdout.write(rules.map(ruleToJsonLine).join(''));
    else if (args.positionals.length === 0) io.stdout.write(formatRuleList(rules));
    else io.stdout.write(rules.map((rule) => formatRule(rule)).join('\n'));
    return Promise.resolve(EXIT_OK);
  },
});

function lookUp(query: string) {
  const found = findRules(query);
  if (found === undefined)
    throw new UsageError(`no rule has the code or family "${query}"; "sitemapkit rules" lists them all`);
  return found;
}
