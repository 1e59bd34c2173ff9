/**
 * The positional input of the commands that read a site's sitemaps (tree, audit): one site
 * (example.com, https://example.com) or one or more sitemap URLs. Anything else is a usage error
 * before any request is made.
 */
import { resolveStart } from '../discover/tree.js';
import { UsageError } from './command.js';

/** The one site, or the sitemap URLs, as the tree walk takes them. */
export function readSiteInput(args: { positionals: string[] }): string | string[] {
  const inputs = args.positionals;
  if (inputs.length === 0) throw new UsageError('give a site (example.com) or a sitemap URL');
  for (const input of inputs) {
    let start;
    try {
      start = resolveStart(input);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    if (start.mode === 'site' && inputs.length > 1)
      throw new UsageError(`give one site, or sitemap URLs: ${input} is a site`);
  }
  return inputs.length === 1 ? inputs[0]! : inputs;
}
