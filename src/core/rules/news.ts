/**
 * The news extension (docs/rules.md). A news block needs the publication's name and language, the
 * publication date and the title (NEWS-001); each has its rule. Problems carry the path of their
 * field relative to the news block ('publication.language', 'publicationDate').
 */
import type { W3cDate } from '../datetime.js';
import type { News } from '../entry.js';
import { newsAgeProblem, readCompleteDate } from './dates.js';
import { isLanguageCode } from './iso-codes.js';
import { accepted, at, problem, refused, shown, type Checked, type RuleProblem } from './problem.js';

/** NEWS-001: the required tags a news block lacks, or undefined when it is complete. */
export function missingNewsProblem(news: News): RuleProblem | undefined {
  const missing = [
    news.publication?.name === undefined && 'news:publication/news:name',
    news.publication?.language === undefined && 'news:publication/news:language',
    news.publicationDate === undefined && 'news:publication_date',
    news.title === undefined && 'news:title',
  ].filter((tag): tag is string => tag !== false);
  if (missing.length === 0) return undefined;
  return problem('NEWS-001', `the news block lacks ${missing.join(', ')}, which Google requires`);
}

/** The two Chinese exceptions Google's news reference names. */
const CHINESE = new Set(['zh-cn', 'zh-tw']);

/**
 * NEWS-005: an ISO 639 language code, written in lower case: two letters of ISO 639-1 ("en"),
 * three letters of ISO 639-2/3 ("haw"), or zh-cn / zh-tw. (Three-letter codes are taken on their
 * shape: ISO 639-3 has some 7,900 of them.)
 */
export function readNewsLanguage(text: string): Checked<string> {
  const value = text.trim();
  const lower = value.toLowerCase();
  const known = CHINESE.has(lower) || (lower.length === 2 && isLanguageCode(lower)) || /^[a-z]{3}$/.test(lower);
  if (!known) {
    return refused(
      problem(
        'NEWS-005',
        `<news:language> ${shown(value)} is not an ISO 639 language code; write two or three letters such as "en" or "fr" (zh-cn and zh-tw for Chinese)`,
      ),
    );
  }
  return lower === value
    ? accepted(lower)
    : accepted(lower, [
        problem('NEWS-005', `<news:language> is written in lower case: "${lower}", not ${shown(value)}`, 'warning'),
      ]);
}

/** NEWS-004: the publication date, a complete date or a date-time with a zone. */
export function readNewsDate(text: string): Checked<W3cDate> {
  return readCompleteDate(text, '<news:publication_date>', 'NEWS-004');
}

/** Genres Google News defined (all legacy now, NEWS-007). */
const NEWS_GENRES = ['PressRelease', 'Satire', 'Blog', 'OpEd', 'Opinion', 'UserGenerated'] as const;
const STOCK_TICKER = /^\w+:\w+$/;

/** Legacy list fields, their tags, and what a value must look like for the schema. */
const LEGACY_FIELDS: readonly (readonly [keyof News, string, (item: string) => boolean, string])[] = [
  ['keywords', 'news:keywords', () => true, ''],
  [
    'genres',
    'news:genres',
    (item) => (NEWS_GENRES as readonly string[]).includes(item),
    `one of ${NEWS_GENRES.join(', ')}`,
  ],
  ['stockTickers', 'news:stock_tickers', (item) => STOCK_TICKER.test(item), 'EXCHANGE:SYMBOL'],
];

/** A date written into a headline: 2024-05-01, 01/05/2024, 1.5.2024. */
const DATE_IN_TITLE = /\b(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4})\b/;

/**
 * Every judgement on the values of a news block: the language (NEWS-005), the date (NEWS-004, and
 * with `now` its age, NEWS-003), the title (NEWS-006) and legacy tags (NEWS-007).
 */
export function newsProblems(news: News, now?: number): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const add = (path: string, found: RuleProblem | undefined) => {
    if (found) problems.push(at(path, found));
  };
  if (news.publication?.language !== undefined)
    add('publication.language', readNewsLanguage(news.publication.language).problems[0]);
  if (news.publicationDate !== undefined) {
    const date = readNewsDate(news.publicationDate);
    add('publicationDate', date.problems[0]);
    if (date.value !== undefined && now !== undefined) add('publicationDate', newsAgeProblem(date.value, now));
  }
  if (news.title !== undefined) add('title', titleProblem(news.title, news.publication?.name));
  for (const [field, tag] of LEGACY_FIELDS) {
    if (news[field] !== undefined)
      add(
        field,
        problem('NEWS-007', `<${tag}> is no longer in Google's news sitemap reference and is ignored: remove it`),
      );
  }
  return problems;
}

/** NEWS-006: the headline alone, without the publication's name or a date. */
function titleProblem(title: string, publicationName: string | undefined): RuleProblem | undefined {
  const name = (publicationName ?? '').replace(/\([^)]*\)/g, '').trim();
  if (name.length > 2 && title.toLowerCase().includes(name.toLowerCase()))
    return problem(
      'NEWS-006',
      `the news title repeats the publication name "${name}"; write the article's headline only`,
    );
  if (DATE_IN_TITLE.test(title))
    return problem(
      'NEWS-006',
      "the news title contains a date; write the article's headline only (the date goes in <news:publication_date>)",
    );
  return undefined;
}

/**
 * A legacy list (keywords, genres, stock tickers) as the schema takes it: genres from Google's
 * list, at most five tickers written EXCHANGE:SYMBOL. Refused with NEWS-007, the legacy rule.
 */
export function readLegacyNewsList(
  field: 'keywords' | 'genres' | 'stockTickers',
  items: readonly string[],
): Checked<string[]> {
  const [, tag, valid, form] = LEGACY_FIELDS.find(([name]) => name === field)!;
  const bad = items.find((item) => !valid(item));
  if (bad !== undefined) return refused(problem('NEWS-007', `<${tag}> ${shown(bad)} is not ${form}`));
  if (field === 'stockTickers' && items.length > 5)
    return refused(problem('NEWS-007', `<${tag}> lists ${items.length} tickers; at most 5 are allowed`));
  return accepted([...items]);
}
