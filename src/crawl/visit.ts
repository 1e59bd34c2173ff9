/**
 * The one place where a crawl visits a page: robots.txt, then the fetch, then the verdict, the
 * URLs the page leads to and, when the fetcher followed a redirect, the target judged from the
 * answer in hand, called by the crawl's step on a run (run/crawl-pages.ts), whether one worker
 * works the run or many. What differs between visits stays with the caller: which retries the
 * fetch makes, what keeps a page from being fetched (the page limit, a trap's query space) and
 * what becomes of a failure.
 */
import { RetryLater } from '../pool/index.js';
import { readAnswer, type ReadAnswer } from './judge.js';
import type { JudgedPage, PageRules } from './page-rules.js';
import type {
  FetchedPage,
  FetchOptions,
  FinishedUrl,
  FoundUrl,
  LeftOutReason,
  PageFetcher,
  RobotsPolicy,
} from './types.js';

/** What a visit works with: the crawl's rules, its fetcher and its robots.txt. */
export interface PageVisitor {
  rules: PageRules;
  fetcher: PageFetcher;
  robots: RobotsPolicy;
}

/** Why a page is not fetched at all, though robots.txt allows it. */
export interface Refusal {
  outcome: LeftOutReason;
  detail: string;
}

/** How this visit goes: the caller's part. */
export interface VisitHow {
  /** The fetcher's options (its retries). */
  fetch: FetchOptions;
  /** Asked once robots.txt allows the page, before the fetch: a reason not to fetch it. */
  refuse?: (() => Promise<Refusal | undefined> | Refusal | undefined) | undefined;
  /** Sees the answer before it is judged (a start URL learns where it lands). */
  onAnswer?: ((page: FetchedPage) => void) | undefined;
  /**
   * Whether a followed redirect's target, in scope, is judged from the answer in hand: `wanted`
   * before its robots.txt is asked, `claim` after, with no await between it and the judging.
   */
  landing?: { wanted(target: string): boolean; claim(target: string): boolean } | undefined;
}

/** What a visit came to. */
export type PageVisit =
  /** Not fetched: robots.txt keeps us out, or `refuse` gave a reason. */
  | { kind: 'not-fetched'; finished: FinishedUrl }
  /** No answer, or a body that broke off: the caller says what becomes of the page. */
  | { kind: 'failed'; error: Error }
  /** Fetched and judged; `requests` counts each redirect followed as one more. */
  | { kind: 'judged'; finished: FinishedUrl; found: FoundUrl[]; requests: number };

/** Visits one page. Throws only RetryLater (a fetcher that defers its retries to the pool). */
export async function visitPage(visitor: PageVisitor, page: JudgedPage, how: VisitHow): Promise<PageVisit> {
  const { url } = page;
  const robots = await visitor.robots.check(url);
  if (!robots.allowed) {
    // A host that gave no answer at all is unreachable, not blocked.
    const outcome = robots.noAnswer === true ? 'fetch-error' : 'robots-blocked';
    return { kind: 'not-fetched', finished: { url, outcome, detail: robots.why, fetched: false } };
  }
  const refused = await how.refuse?.();
  if (refused !== undefined) return { kind: 'not-fetched', finished: { url, ...refused, fetched: false } };
  let answer: ReadAnswer;
  let requests: number;
  try {
    const fetched = await visitor.fetcher.fetch(url, how.fetch);
    requests = 1 + fetched.redirects.length;
    how.onAnswer?.(fetched);
    answer = await readAnswer(fetched, { shape: visitor.rules.wantsShape(page) });
  } catch (error) {
    if (error instanceof RetryLater) throw error;
    return { kind: 'failed', error: error as Error };
  }
  const options = { blockedFor: robots.blockedFor };
  const judged = visitor.rules.judge(page, answer, options);
  let found = judged.found;
  if (judged.finished.outcome === 'redirected') {
    const landed = await judgeLanding(visitor, page, found[0]!.url, answer, how);
    if (landed !== undefined) found = landed;
  }
  return { kind: 'judged', finished: judged.finished, found, requests };
}

/** The redirect's target judged from the answer in hand, when it is ours to crawl and robots.txt allows it. */
async function judgeLanding(
  { rules, robots }: PageVisitor,
  page: JudgedPage,
  target: string,
  answer: ReadAnswer,
  how: VisitHow,
): Promise<FoundUrl[] | undefined> {
  if (!rules.scope(target).inScope || how.landing?.wanted(target) === false) return undefined;
  const verdict = await robots.check(target);
  if (!verdict.allowed || how.landing?.claim(target) === false) return undefined;
  return rules.judgeLanding(page, target, answer, { blockedFor: verdict.blockedFor });
}
