/**
 * News extension rules on kept values (docs/rules.md), by the news rules of core: language
 * (NEWS-005), date and age (NEWS-004, NEWS-003), title (NEWS-006), legacy tags (NEWS-007); and
 * how many news entries one sitemap holds (NEWS-002). Required tags (NEWS-001) and `news:access`
 * (NEWS-007, not in the entry model) are the parser's.
 */
import type { UrlEntry } from '../core/entry.js';
import { LIMITS } from '../core/limits.js';
import { newsProblems } from '../core/rules/news.js';
import type { LocatedEntry } from '../parse/types.js';
import type { Reporter } from './reporter.js';

type LocatedUrl = LocatedEntry & { entry: UrlEntry };

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
    report.rules(newsProblems(news, this.now), located, 'news', ['news']);
  }
}
