/**
 * hreflang alternates (docs/rules.md): the value of `hreflang` (HREF-002) and the alternates of one
 * URL taken together (HREF-003: the URL lists itself; HREF-005: one language, one URL). Return
 * links across URLs (HREF-004) need every URL of the run and are the validator's.
 */
import type { Alternate } from '../entry.js';
import { isCountryCode, isLanguageCode } from './iso-codes.js';
import { accepted, at, NO_PROBLEMS, problem, refused, shown, type Checked, type RuleProblem } from './problem.js';

/** A language, an optional ISO 15924 script, an optional region (two letters, or three digits to be refused by name). */
const HREFLANG_SHAPE = /^([a-z]{2,3})(?:-([a-z]{4}))?(?:-([a-z]{2}|\d{3}))?$/i;

/**
 * Why an hreflang value is not what Google reads, or undefined when it is: x-default, or an ISO
 * 639-1 language, optionally with a script ("zh-Hant") and an ISO 3166-1 alpha-2 region ("en-GB",
 * "zh-Hant-TW"), in any case. A region alone, "en-UK" and UN M.49 regions ("es-419") are refused.
 */
export function hreflangProblem(value: string): string | undefined {
  if (value.toLowerCase() === 'x-default') return undefined;
  const match = HREFLANG_SHAPE.exec(value);
  const language = match?.[1];
  if (!match || language === undefined) {
    return `${shown(value)} is not a language code; write an ISO 639-1 language, optionally with a script and a region ("de", "zh-Hant", "en-GB"), or x-default`;
  }
  if (!isLanguageCode(language)) {
    return isCountryCode(language) && match[2] === undefined && match[3] === undefined
      ? `${shown(value)} is a region without a language; write the language first, e.g. "en-${value.toUpperCase()}"`
      : `"${language.toLowerCase()}" is not an ISO 639-1 language code`;
  }
  const region = match[3];
  if (region !== undefined && !isCountryCode(region)) {
    return region.toUpperCase() === 'UK'
      ? `${shown(value)} uses UK, which is not a country code; the United Kingdom is GB ("${language}-GB")`
      : `"${region}" in ${shown(value)} is not an ISO 3166-1 alpha-2 country code`;
  }
  return undefined;
}

/** HREF-002: the hreflang value, trimmed. */
export function readHreflang(text: string): Checked<string> {
  const value = text.trim();
  const why = hreflangProblem(value);
  return why === undefined ? accepted(value) : refused(problem('HREF-002', `hreflang ${why}`));
}

/** Up to this many alternates, each is compared with those before it; past it, a map keeps the check linear. */
const PAIRWISE_MAX = 16;

/**
 * The alternates of one URL together: the URL must be among them (HREF-003), and one language
 * must not name two URLs (HREF-005). Problems carry the path of the alternate they are about.
 * This runs for every URL with hreflang links, so an ordinary cluster allocates nothing.
 */
export function alternatesProblems(loc: string, alternates: readonly Alternate[]): readonly RuleProblem[] {
  let problems: RuleProblem[] | undefined;
  const byLanguage = alternates.length > PAIRWISE_MAX ? new Map<string, string>() : undefined;
  let listsItself = false;
  for (let i = 0; i < alternates.length; i++) {
    const alternate = alternates[i]!;
    if (alternate.href === loc) listsItself = true;
    const other = byLanguage ? swapHref(byLanguage, alternate) : earlierHref(alternates, i);
    if (other !== undefined && other !== alternate.href) {
      (problems ??= []).push(
        at(
          `alternates.${i}`,
          problem(
            'HREF-005',
            `hreflang "${alternate.hreflang}" points to both ${shown(other, 120)} and ${shown(alternate.href, 120)}; each language must map to one URL`,
          ),
        ),
      );
    }
  }
  if (!listsItself && alternates.length > 0) {
    (problems ??= []).unshift(
      at(
        'alternates.0',
        problem(
          'HREF-003',
          `the URL's hreflang links do not include the URL itself; add <xhtml:link rel="alternate" hreflang="…" href="${loc}"/> with its own language`,
        ),
      ),
    );
  }
  return problems ?? NO_PROBLEMS;
}

/** The href the nearest earlier alternate gave the same language (compared without case). */
function earlierHref(alternates: readonly Alternate[], i: number): string | undefined {
  const language = alternates[i]!.hreflang;
  for (let j = i - 1; j >= 0; j--) {
    const earlier = alternates[j]!.hreflang;
    if (
      earlier.length === language.length &&
      (earlier === language || earlier.toLowerCase() === language.toLowerCase())
    )
      return alternates[j]!.href;
  }
  return undefined;
}

/** The same through a map of the last href per language, which then takes this alternate's. */
function swapHref(byLanguage: Map<string, string>, alternate: Alternate): string | undefined {
  const language = alternate.hreflang.toLowerCase();
  const other = byLanguage.get(language);
  byLanguage.set(language, alternate.href);
  return other;
}

/**
 * HREF-007: the hreflang links a sitemap gives a URL and those its live page declares, when both
 * declare some and they differ (languages compared without case, URLs as given, absolute). A page
 * with none uses the sitemap's, which is allowed.
 */
export function alternatesMismatchProblem(
  listed: readonly Alternate[],
  live: readonly Alternate[],
): RuleProblem | undefined {
  if (listed.length === 0 || live.length === 0) return undefined;
  const key = ({ hreflang, href }: Alternate) => `${hreflang.toLowerCase()} ${href}`;
  const inLive = new Set(live.map(key));
  const inListed = new Set(listed.map(key));
  const onlyListed = [...inListed].filter((pair) => !inLive.has(pair));
  const onlyLive = [...inLive].filter((pair) => !inListed.has(pair));
  if (onlyListed.length === 0 && onlyLive.length === 0) return undefined;
  const pairs = (list: string[]) =>
    list
      .slice(0, 3)
      .map((pair) => pair.replace(' ', ' → '))
      .join(', ') + (list.length > 3 ? ` and ${list.length - 3} more` : '');
  const parts = [
    ...(onlyListed.length > 0 ? [`only in the sitemap: ${pairs(onlyListed)}`] : []),
    ...(onlyLive.length > 0 ? [`only on the page: ${pairs(onlyLive)}`] : []),
  ];
  return problem(
    'HREF-007',
    `the sitemap's hreflang links differ from the page's (${parts.join('; ')}); declare the same set in both`,
  );
}
