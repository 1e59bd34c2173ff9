/**
 * Soft 404s, as Screaming Frog and Sitebulb find them: once per host, the audit asks for a URL
 * that cannot exist and keeps a fingerprint of the answer (status, content digest, title and first
 * heading). A host that answers it 404 has told us what "not found" looks like; one that answers
 * 200 gives the page a listed URL must not be (./check.ts compares them).
 */
import { createHash } from 'node:crypto';
import type { HttpClient } from '../http/client.js';
import type { RobotsTxtCache } from '../discover/robots.js';
import { fetchLiveAnswer } from './live-page.js';
import { originOf } from '../core/url.js';

/** What a host answered for a URL that cannot exist. */
export interface NotFoundAnswer {
  url: string;
  status: number;
  digest?: string;
  title?: string;
  heading?: string;
}

/** The path asked for on each origin: no site has it (a digest of the origin, so none can guess it). */
export function notFoundProbeUrl(origin: string): string {
  const token = createHash('sha256').update(`sitemapkit soft-404 ${origin}`).digest('hex').slice(0, 20);
  return `${origin}/sitemapkit-no-such-page-${token}`;
}

/**
 * The answer of each origin to a URL that cannot exist, asked once (the first URL of a host
 * waits for it, the others read it). Not asked where robots.txt keeps us out, nor when it fails.
 */
export class NotFoundProbes {
  private readonly asked = new Map<string, Promise<NotFoundAnswer | undefined>>();
  private readonly answers = new Map<string, NotFoundAnswer | undefined>();

  constructor(
    private readonly http: HttpClient,
    private readonly robots: RobotsTxtCache,
    private readonly maxBytes: number,
    private readonly signal?: AbortSignal | undefined,
  ) {}

  /** Asks the origin of `url`, once. */
  async probe(url: string): Promise<void> {
    const origin = originOf(url);
    if (origin === undefined) return;
    let asking = this.asked.get(origin);
    if (asking === undefined) {
      asking = this.ask(origin);
      this.asked.set(origin, asking);
    }
    this.answers.set(origin, await asking);
  }

  /** What the origin of `url` answered, once probe() has asked. */
  answerFor(url: string): NotFoundAnswer | undefined {
    const origin = originOf(url);
    return origin === undefined ? undefined : this.answers.get(origin);
  }

  private async ask(origin: string): Promise<NotFoundAnswer | undefined> {
    const url = notFoundProbeUrl(origin);
    try {
      const robots = await this.robots.get(url);
      if (robots.outcome === 'unreachable' || !robots.rules.isAllowed(url, this.http.userAgent)) return undefined;
      const answer = await fetchLiveAnswer(this.http, url, { maxBytes: this.maxBytes, signal: this.signal });
      if (answer.kind !== 'answered' || answer.redirects.length > 0) return undefined;
      return {
        url,
        status: answer.status,
        ...(answer.digest === undefined ? {} : { digest: answer.digest }),
        ...(answer.page?.title === undefined ? {} : { title: answer.page.title }),
        ...(answer.page?.heading === undefined ? {} : { heading: answer.page.heading }),
      };
    } catch (error) {
      if (this.signal?.aborted) throw error;
      return undefined;
    }
  }
}
