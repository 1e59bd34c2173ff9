/**
 * hreflang alternates from a site's languages, as i18n frameworks lay them out: the same page in
 * each language under the language's path prefix (`/about`, `/fr/about`, `/de/about`). Pages whose
 * paths match once the prefix is taken off are translations of each other; each of them lists
 * every version, itself included, and the default language's as x-default, so that the
 * alternates hold both ways. A page whose head named its alternates already keeps them.
 */
import type { UrlEntry } from '../core/index.js';
import type { LocalePrefix } from './options.js';

/** Gives the entries the alternates of their translations (in place). */
export function alternatesByLocale(
  entries: readonly UrlEntry[],
  baseUrl: string,
  locales: readonly LocalePrefix[],
  defaultLocale?: string,
): void {
  const basePath = new URL(baseUrl).pathname;
  // Longest prefix first, so that `pt-br/` wins over `pt/` and any prefix over the default's ''.
  const ordered = [...locales].sort((a, b) => b.prefix.length - a.prefix.length);
  const groups = new Map<string, { entry: UrlEntry; locale: LocalePrefix }[]>();
  for (const entry of entries) {
    const url = new URL(entry.loc);
    if (!url.pathname.startsWith(basePath)) continue;
    const path = url.pathname.slice(basePath.length);
    const locale = ordered.find((candidate) => inLocale(path, candidate.prefix));
    if (locale === undefined) continue;
    const key = path.slice(locale.prefix.length).replace(/^\/|\/$/g, '');
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push({ entry, locale });
  }
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const alternates = group.map(({ entry, locale }) => ({ hreflang: locale.hreflang, href: entry.loc }));
    const fallback = group.find(({ locale }) => locale.hreflang === defaultLocale);
    if (fallback) alternates.push({ hreflang: 'x-default', href: fallback.entry.loc });
    for (const { entry } of group) if (!entry.alternates?.length) entry.alternates = alternates.map((a) => ({ ...a }));
  }
}

/** `fr/about` and `fr` are in `fr/`; everything is in the default language's `''`. */
function inLocale(path: string, prefix: string): boolean {
  if (prefix === '') return true;
  const bare = prefix.replace(/\/$/, '');
  return path === bare || path.startsWith(`${bare}/`);
}
