/**
 * News extension rules on kept values (RULES.md §8). Required tags (NEWS-001) and `news:access`
 * (NEWS-007, not in the entry model) are the parser's.
 */
import { parseW3cDate, toEpochMillis } from '../core/datetime.js';
import type { News, UrlEntry } from '../core/entry.js';
import { LIMITS } from '../core/limits.js';
import type { LocatedEntry } from '../parse/types.js';
import { LANGUAGE_CODES } from './codes.js';
import { quote, type Reporter } from './reporter.js';

type LocatedUrl = LocatedEntry & { entry: UrlEntry };

const HOUR_MS = 3_600_000;
const CHINESE_SCRIPTS = new Set(['zh-cn', 'zh-tw']);
const LEGACY_NEWS_TAGS: readonly [keyof News, string][] = [
  ['keywords', 'news:keywords'],
  ['genres', 'news:genres'],
  ['stockTickers', 'news:stock_tickers'],
];
/** A date written into a headline: 2024-05-01, 01/05/2024, 1.5.2024. */
const DATE_IN_TITLE = /\b(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4})\b/;

export class NewsRules {
  /** News entries in this document (NEWS-002 counts per sitemap). */
  count = 0;

  constructor(private readonly now: number) {}

  check(located: LocatedUrl, report: Reporter): void {
    const news = located.entry.news;
    if (!news) return;
    this.count++;
    if (this.count === LIMITS.maxNewsPerSitemap + 1) {
      report.field(
        'NEWS-002',
        `this is news entry ${this.count}; a news sitemap may hold at most ${LIMITS.maxNewsPerSitemap}: split it and list the parts in a sitemap index`,
        located,
        ['news', 'loc'],
      );
    }
    this.checkDate(located, news, report);
    checkLanguage(located, news, report);
    checkTitle(located, news, report);
    for (const [field, tag] of LEGACY_NEWS_TAGS) {
      if (news[field] !== undefined) {
        report.field(
          'NEWS-007',
          `<${tag}> is no longer in Google's news sitemap reference and is ignored: remove it`,
          located,
          [`news.${field}`, 'news'],
        );
      }
    }
  }

  private checkDate(located: LocatedUrl, news: News, report: Reporter): void {
    const at = ['news.publicationDate', 'news'];
    const parsed = parseW3cDate(news.publicationDate.trim());
    if (!parsed.ok) {
      report.field('NEWS-004', `<news:publication_date>: ${parsed.problem.message}`, located, at);
      return;
    }
    if (parsed.value.granularity === 'year' || parsed.value.granularity === 'month') {
      report.field(
        'NEWS-004',
        `<news:publication_date> ${quote(news.publicationDate)} is not a full date; write YYYY-MM-DD or YYYY-MM-DDThh:mm:ss±hh:mm, the time the article was first published`,
        located,
        at,
      );
      return;
    }
    const ageHours = (this.now - toEpochMillis(parsed.value)) / HOUR_MS;
    if (ageHours > LIMITS.newsMaxAgeHours) {
      report.field(
        'NEWS-003',
        `the article was published ${formatAge(ageHours)} ago; news sitemaps should list only articles from the last ${LIMITS.newsMaxAgeHours} hours: remove the URL or its <news:news> block`,
        located,
        at,
      );
    }
  }
}

function checkLanguage(located: LocatedUrl, news: News, report: Reporter): void {
  const language = news.publication.language.trim().toLowerCase();
  const valid = CHINESE_SCRIPTS.has(language) || LANGUAGE_CODES.has(language) || /^[a-z]{3}$/.test(language);
  if (!valid) {
    report.field(
      'NEWS-005',
      `<news:language> ${quote(news.publication.language)} is not an ISO 639 language code; write two or three letters such as "en" or "fr" (zh-cn and zh-tw for Chinese)`,
      located,
      ['news.publication.language', 'news.language', 'news'],
    );
  }
}

function checkTitle(located: LocatedUrl, news: News, report: Reporter): void {
  const name = news.publication.name.replace(/\([^)]*\)/g, '').trim();
  const at = ['news.title', 'news'];
  if (name.length > 2 && news.title.toLowerCase().includes(name.toLowerCase())) {
    report.field(
      'NEWS-006',
      `the news title repeats the publication name "${name}"; write the article's headline only`,
      located,
      at,
    );
  } else if (DATE_IN_TITLE.test(news.title)) {
    report.field(
      'NEWS-006',
      `the news title contains a date; write the article's headline only (the date goes in <news:publication_date>)`,
      located,
      at,
    );
  }
}

function formatAge(hours: number): string {
  return hours < 72 ? `${Math.floor(hours)} hours` : `${Math.floor(hours / 24)} days`;
}
