/**
 * The location rule (docs/rules.md URL-004/005, IDX-004 and SCOPE-EX): a sitemap may list only URLs on
 * its own scheme, host and port, at or below its own directory. Whether a violation is an error
 * depends on what is known about how the sitemap was submitted.
 */
import type { Severity } from '../core/diagnostics.js';
import { checkScope, looksAbsoluteHttp, type ScopeResult } from '../core/url.js';

export class Scope {
  /** `scheme://host[:port]/dir/` as the URL parser normalises it: most locs start with it verbatim. */
  private readonly prefix: string;
  readonly directory: string;
  readonly origin: string;

  constructor(
    readonly location: string,
    /** Errors when cross-submission is ruled out; warnings otherwise (SCOPE-EX). */
    readonly strict: boolean,
  ) {
    const url = new URL(location);
    this.origin = url.origin;
    this.directory = url.pathname.slice(0, url.pathname.lastIndexOf('/') + 1);
    this.prefix = this.origin + this.directory;
  }

  get severity(): Severity {
    return this.strict ? 'error' : 'warning';
  }

  check(url: string): ScopeResult {
    // The fast path avoids a URL parse per entry on the common, well-formed sitemap.
    if (url.startsWith(this.prefix)) return 'in-scope';
    return checkScope(url, this.location);
  }

  /** The tail of every scope message: how to fix it, and why it is (or is not) an error. */
  advice(): string {
    return this.strict
      ? 'move it to a sitemap on its own host and folder'
      : 'move it to a sitemap on its own host and folder (a warning, as cross-submission through robots.txt may allow it; --strict-scope makes it an error)';
  }
}

/** A scope for a location given by the user or the fetch, or none when there is no usable URL. */
export function scopeFor(location: string | undefined, strict: boolean): Scope | undefined {
  if (location === undefined || !looksAbsoluteHttp(location)) return undefined;
  try {
    return new Scope(location, strict);
  } catch {
    return undefined;
  }
}
