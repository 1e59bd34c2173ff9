/**
 * robots.txt as RFC 9309 defines it: groups of user-agent lines with allow and
 * disallow rules, matched longest-first with `*` and `$`, plus the Sitemap records that belong to
 * no group. Pure: bytes in, rules and diagnostics out.
 *
 * Own code rather than robots-parser: see ROBOTS_PARSER_GAPS in test/discover/robots.test.ts for
 * the RFC 9309 cases that package gets wrong.
 */
import { diagnostic, type Diagnostic } from './diagnostics.js';
import { looksAbsoluteHttp, normaliseUrl } from './url.js';
import { LIMITS } from './limits.js';

interface Rule {
  allow: boolean;
  /** The pattern in canonical form (see canonicalise). */
  pattern: string;
  /** Octets that count for "longest match". */
  length: number;
  /** True when the pattern has `*` or ends in `$`: matched by matchesPattern, not as a prefix. */
  wildcard: boolean;
}

interface Group {
  rules: Rule[];
  crawlDelay?: number;
}

/** A `Sitemap:` line of a robots.txt: the URL it declares, and where. */
export interface RobotsSitemap {
  url: string;
  line: number;
}

/**
 * The rules of one robots.txt (RFC 9309): whether a user agent may fetch a URL, and its
 * Crawl-delay.
 */
export class RobotsRules {
  constructor(
    /** Groups by lower-case product token; '*' is the default group. */
    private readonly groups: ReadonlyMap<string, Group>,
    readonly sitemaps: readonly RobotsSitemap[],
    readonly diagnostics: readonly Diagnostic[],
  ) {}

  /** Rules that allow everything (a 4xx robots.txt, RFC 9309 §2.3.1.3). */
  static allowAll(diagnostics: Diagnostic[] = []): RobotsRules {
    return new RobotsRules(new Map(), [], diagnostics);
  }

  /** Rules that disallow everything (an unreachable robots.txt, §2.3.1.4). */
  static disallowAll(diagnostics: Diagnostic[] = []): RobotsRules {
    const everything: Rule = { allow: false, pattern: '/', length: 1, wildcard: false };
    return new RobotsRules(new Map([['*', { rules: [everything] }]]), [], diagnostics);
  }

  /**
   * May `userAgent` fetch `url`? Only the path and query count (the caller picks the robots.txt
   * of the URL's origin). The longest matching rule wins; on a tie, allow wins.
   */
  isAllowed(url: string, userAgent = '*'): boolean {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return false;
    }
    if (target.pathname === '/robots.txt') return true;
    const path = canonicalise(`${target.pathname}${target.search}`, false);
    let best: Rule | undefined;
    for (const rule of this.groupFor(userAgent)?.rules ?? []) {
      if (!matches(rule, path)) continue;
      if (!best || rule.length > best.length || (rule.length === best.length && rule.allow && !best.allow)) best = rule;
    }
    return best?.allow ?? true;
  }

  /** Seconds to wait between requests, when the group for `userAgent` says so. */
  crawlDelay(userAgent = '*'): number | undefined {
    return this.groupFor(userAgent)?.crawlDelay;
  }

  private groupFor(userAgent: string): Group | undefined {
    return this.groups.get(productToken(userAgent)) ?? this.groups.get('*');
  }
}

/**
 * The product token a crawler matches groups with: the leading run of letters, `_` and `-` of
 * its user-agent, in lower case ("sitemapkit/0.1 (+https://…)" → "sitemapkit").
 */
export function productToken(userAgent: string): string {
  const token = /^[A-Za-z_-]+/.exec(userAgent.trim())?.[0];
  return token ? token.toLowerCase() : userAgent.trim() === '*' ? '*' : userAgent.trim().toLowerCase();
}

const FIELD_ALIASES: Record<string, string> = {
  'user-agent': 'user-agent',
  useragent: 'user-agent',
  'user agent': 'user-agent',
  allow: 'allow',
  disallow: 'disallow',
  dissallow: 'disallow',
  dissalow: 'disallow',
  disalow: 'disallow',
  sitemap: 'sitemap',
  'site-map': 'sitemap',
  'crawl-delay': 'crawl-delay',
};

const BOM = [0xef, 0xbb, 0xbf];
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses a robots.txt fetched from `robotsUrl` (which relative Sitemap values resolve against).
 * Reads at most 500 KiB (ROBOTS-001 beyond). A line that is not UTF-8 is skipped, not the file.
 */
export function parseRobotsTxt(content: Uint8Array | string, robotsUrl: string): RobotsRules {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  const diagnostics: Diagnostic[] = [];
  const source = robotsUrl;
  let end = bytes.length;
  if (end > LIMITS.robotsMaxBytes) {
    diagnostics.push(
      diagnostic(
        'ROBOTS-001',
        `robots.txt is larger than ${LIMITS.robotsMaxBytes.toLocaleString('en-US')} bytes (500 KiB); the rest is not read`,
        { source },
      ),
    );
    end = LIMITS.robotsMaxBytes;
  }
  const start = BOM.every((b, i) => bytes[i] === b) ? 3 : 0;

  const groups = new Map<string, Group>();
  const sitemaps: RobotsSitemap[] = [];
  let agents: string[] = [];
  /** True once the current group has a rule: the next user-agent line starts a new group. */
  let groupHasRules = false;
  let orphanReported = false;

  forEachLine(bytes, start, end, (lineBytes, line) => {
    let text: string;
    try {
      text = utf8.decode(lineBytes);
    } catch {
      return; // not UTF-8: skip this line, keep the rest (RFC 9309 §2.2)
    }
    const record = splitRecord(text);
    if (!record) return;
    const field = FIELD_ALIASES[record.field];
    switch (field) {
      case 'user-agent':
        if (groupHasRules) {
          agents = [];
          groupHasRules = false;
        }
        agents.push(record.value === '*' ? '*' : productToken(record.value));
        groupOf(groups, agents[agents.length - 1]!); // an empty group still claims its agent
        return;
      case 'allow':
      case 'disallow': {
        if (agents.length === 0) {
          if (!orphanReported) {
            diagnostics.push(
              diagnostic('ROBOTS-005', `"${text.trim()}" comes before any user-agent line and applies to no one`, {
                source,
                line,
                column: 1,
              }),
            );
            orphanReported = true;
          }
          return;
        }
        groupHasRules = true;
        if (record.value === '') return; // an empty rule is no rule
        const rule = compileRule(record.value, field === 'allow');
        for (const agent of agents) groupOf(groups, agent).rules.push(rule);
        return;
      }
      case 'crawl-delay': {
        const seconds = Number(record.value);
        if (agents.length === 0 || !Number.isFinite(seconds) || seconds < 0) return;
        groupHasRules = true;
        for (const agent of agents) groupOf(groups, agent).crawlDelay = seconds;
        return;
      }
      case 'sitemap':
        readSitemap(record.value, robotsUrl, line, sitemaps, diagnostics);
        return;
      default:
        return; // unknown records are ignored
    }
  });
  return new RobotsRules(groups, sitemaps, diagnostics);
}

function readSitemap(
  value: string,
  robotsUrl: string,
  line: number,
  sitemaps: RobotsSitemap[],
  diagnostics: Diagnostic[],
): void {
  if (value === '') return;
  const source = robotsUrl;
  const relative = !looksAbsoluteHttp(value);
  const resolved = normaliseUrl(value, relative ? robotsUrl : undefined);
  if (!resolved.ok) {
    diagnostics.push(
      diagnostic('ROBOTS-002', `Sitemap: "${value}" is not a usable URL: ${resolved.problem.message}`, {
        source,
        line,
        column: 1,
      }),
    );
    return;
  }
  if (relative) {
    diagnostics.push(
      diagnostic('ROBOTS-002', `Sitemap: "${value}" is relative; write the absolute URL ${resolved.value}`, {
        source,
        line,
        column: 1,
        url: resolved.value,
      }),
    );
  }
  sitemaps.push({ url: resolved.value, line });
}

function splitRecord(text: string): { field: string; value: string } | undefined {
  const hash = text.indexOf('#');
  const content = hash === -1 ? text : text.slice(0, hash);
  const colon = content.indexOf(':');
  if (colon === -1) return undefined;
  const field = content.slice(0, colon).trim().toLowerCase().replace(/\s+/g, ' ');
  if (field === '') return undefined;
  return { field, value: content.slice(colon + 1).trim() };
}

/** Calls back with each line's bytes (CR, LF or CRLF ends a line) and its 1-based number. */
function forEachLine(
  bytes: Uint8Array,
  start: number,
  end: number,
  visit: (line: Uint8Array, number: number) => void,
): void {
  let lineStart = start;
  let number = 1;
  for (let i = start; i < end; i++) {
    const byte = bytes[i];
    if (byte !== 0x0a && byte !== 0x0d) continue;
    visit(bytes.subarray(lineStart, i), number++);
    if (byte === 0x0d && bytes[i + 1] === 0x0a) i++;
    lineStart = i + 1;
  }
  if (lineStart < end) visit(bytes.subarray(lineStart, end), number);
}

function groupOf(groups: Map<string, Group>, agent: string): Group {
  let group = groups.get(agent);
  if (!group) {
    group = { rules: [] };
    groups.set(agent, group);
  }
  return group;
}

function compileRule(value: string, allow: boolean): Rule {
  const pattern = canonicalise(value, true);
  return { allow, pattern, length: pattern.length, wildcard: pattern.includes('*') || pattern.endsWith('$') };
}

function matches(rule: Rule, path: string): boolean {
  return rule.wildcard ? matchesPattern(path, rule.pattern) : path.startsWith(rule.pattern);
}

/**
 * Does `pattern` (with `*` for any run of characters and a final `$` for the end) match the start
 * of `path`? In time O(path × pattern) and without backtracking, whatever the pattern; a regular
 * expression with `.*` for each `*` backtracks, and `/*a*a*a*…*b` on a long path never ends.
 *
 * Google's robots.txt matcher keeps the set of path positions the pattern read so far can end at,
 * and moves the whole set one pattern character at a time. At each `*` that set becomes "every
 * position from its smallest on", so between two `*` only the smallest end of the literal text
 * counts: its first occurrence (indexOf) from there. Only the text after the last `*` is tested
 * as the set would be: anywhere after (unanchored), or at the very end (`$`).
 */
export function matchesPattern(path: string, pattern: string): boolean {
  const anchored = pattern.endsWith('$');
  const pieces = (anchored ? pattern.slice(0, -1) : pattern).split('*');
  const first = pieces[0]!;
  if (!path.startsWith(first)) return false;
  if (pieces.length === 1) return !anchored || path.length === first.length;
  let from = first.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const at = path.indexOf(pieces[i]!, from);
    if (at === -1) return false;
    from = at + pieces[i]!.length;
  }
  const last = pieces[pieces.length - 1]!;
  return anchored ? path.length - last.length >= from && path.endsWith(last) : path.indexOf(last, from) !== -1;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * One spelling for paths and patterns before they are compared (RFC 9309 §2.2.2): non-ASCII as
 * UTF-8 percent-escapes, escapes in upper case, escaped unreserved characters decoded. In a path,
 * `*` and `$` are literal and become %2A and %24, which is how a pattern writes them literally;
 * in a pattern they stay special (`$` only at the end).
 */
function canonicalise(text: string, isPattern: boolean): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '%' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      const decoded = String.fromCharCode(parseInt(text.slice(i + 1, i + 3), 16));
      out += UNRESERVED.test(decoded) ? decoded : `%${text.slice(i + 1, i + 3).toUpperCase()}`;
      i += 2;
    } else if (ch === '*') {
      out += isPattern ? '*' : '%2A';
    } else if (ch === '$') {
      out += isPattern && i === text.length - 1 ? '$' : '%24';
    } else if (ch.charCodeAt(0) > 0x7f) {
      const codePoint = text.codePointAt(i)!;
      if (codePoint > 0xffff) i++;
      out += encodeUtf8(String.fromCodePoint(codePoint));
    } else {
      out += ch;
    }
  }
  return out;
}

/** Percent-escapes one character as UTF-8; a lone surrogate becomes U+FFFD. */
function encodeUtf8(ch: string): string {
  try {
    return encodeURIComponent(ch);
  } catch {
    return '%EF%BF%BD';
  }
}
