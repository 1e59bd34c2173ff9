/**
 * Reading one value out of an element, the lenient way: text is trimmed (and trimming reported
 * where it matters), child elements inside a text element are reported and their text used, and
 * a value that cannot be represented is dropped with the rule that says why.
 */
import { parseW3cDate } from '../../core/datetime.js';
import { findUrlSyntaxProblem } from '../../core/url.js';
import type { Report } from '../diagnostics.js';
import { textContent, type XmlNode } from '../xml/block.js';

export interface ValueContext {
  report: Report;
  /** Where the document was fetched from; relative URLs resolve against it. */
  baseUrl?: string | undefined;
}

// eslint-disable-next-line no-control-regex -- finding the control characters XML forbids is the point
const CONTROL_CHARACTER = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/;
const CONTROL_CHARACTERS = new RegExp(CONTROL_CHARACTER.source, 'g');

/** The trimmed text of a text element, or undefined (with XML-010) when it is empty. */
export function readText(node: XmlNode, ctx: ValueContext, url?: string): string | undefined {
  if (node.children.length > 0) {
    ctx.report('XML-010', `<${node.qname}> must hold text, not elements; its text content is used`, node.at, url);
  }
  let value = textContent(node).trim();
  if (CONTROL_CHARACTER.test(value)) {
    ctx.report(
      'XML-006',
      `<${node.qname}> holds control characters, which XML does not allow; they were removed`,
      node.valueAt,
      url,
    );
    value = value.replace(CONTROL_CHARACTERS, '');
  }
  if (value === '') {
    ctx.report('XML-010', `<${node.qname}> is empty`, node.at, url);
    return undefined;
  }
  return value;
}

/**
 * An absolute http(s) URL from a `loc`-like element. Relative URLs resolve against the base URL
 * (URL-001, kept) or are dropped without one; other schemes are dropped (URL-001); whitespace
 * around the value and characters that must be percent-encoded are reported (URL-003).
 */
export function readUrl(node: XmlNode, ctx: ValueContext, url?: string): string | undefined {
  const raw = readText(node, ctx, url);
  return raw === undefined ? undefined : checkUrl(raw, textContent(node), node, ctx, url);
}

export function checkUrl(
  value: string,
  raw: string,
  node: Pick<XmlNode, 'qname' | 'valueAt'>,
  ctx: ValueContext,
  url?: string,
): string | undefined {
  const at = node.valueAt;
  if (raw.length !== value.length && raw.trim() === value) {
    ctx.report('URL-003', `whitespace around the URL in <${node.qname}> was removed`, at, value, 'warning');
  }
  const scheme = value.startsWith('https://')
    ? 'https'
    : value.startsWith('http://')
      ? 'http'
      : /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    if (ctx.baseUrl === undefined) {
      ctx.report(
        'URL-001',
        `"${value}" in <${node.qname}> is a relative URL and no base URL is known; left out`,
        at,
        url,
      );
      return undefined;
    }
    let resolved: string;
    try {
      resolved = new URL(value, ctx.baseUrl).href;
    } catch {
      ctx.report('URL-001', `"${value}" in <${node.qname}> is not a valid URL; left out`, at, url);
      return undefined;
    }
    ctx.report(
      'URL-001',
      `"${value}" in <${node.qname}> is relative; read as ${resolved} (write absolute URLs)`,
      at,
      resolved,
    );
    return resolved;
  }
  if (scheme !== 'http' && scheme !== 'https') {
    ctx.report('URL-001', `"${abbreviate(value)}" in <${node.qname}> is not an http(s) URL; left out`, at, url);
    return undefined;
  }
  const problem = findUrlSyntaxProblem(value);
  if (problem) ctx.report('URL-003', `<${node.qname}>: ${problem.message}`, at, value);
  return value;
}

/** Valid dates seen lately: sitemaps repeat a few lastmod values thousands of times. */
const RECENT_DATES = new Set<string>();

/** True when `value` is a valid W3C datetime (remembered: the same few values come again and again). */
export function isValidW3cDate(value: string): boolean {
  if (RECENT_DATES.has(value)) return true;
  if (!parseW3cDate(value).ok) return false;
  if (RECENT_DATES.size >= 256) RECENT_DATES.clear();
  RECENT_DATES.add(value);
  return true;
}

/** A W3C datetime kept as written (trimmed), or undefined with DATE-001..003. */
export function readW3cDate(node: XmlNode, ctx: ValueContext, url?: string): string | undefined {
  const value = readText(node, ctx, url);
  if (value === undefined) return undefined;
  if (isValidW3cDate(value)) return value;
  const parsed = parseW3cDate(value);
  if (parsed.ok) return value;
  ctx.report(parsed.problem.code, `<${node.qname}>: ${parsed.problem.message}; left out`, node.valueAt, url);
  return undefined;
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A decimal number, or undefined (with `code`) when the text is not one. */
export function readNumber(node: XmlNode, ctx: ValueContext, code: string, url?: string): number | undefined {
  const value = readText(node, ctx, url);
  if (value === undefined) return undefined;
  if (DECIMAL.test(value)) return Number(value);
  ctx.report(code, `<${node.qname}>: "${abbreviate(value)}" is not a number; left out`, node.valueAt, url);
  return undefined;
}

/** yes/no as a boolean (VID-006 when the case is off, or when it is neither). */
export function readYesNo(node: XmlNode, ctx: ValueContext, url?: string): boolean | undefined {
  const value = readText(node, ctx, url);
  if (value === undefined) return undefined;
  const lower = value.toLowerCase();
  if (lower !== 'yes' && lower !== 'no') {
    ctx.report('VID-006', `<${node.qname}> must be yes or no, not "${abbreviate(value)}"; left out`, node.valueAt, url);
    return undefined;
  }
  if (lower !== value)
    ctx.report('VID-006', `<${node.qname}> must be lower-case "${lower}"`, node.valueAt, url, 'warning');
  return lower === 'yes';
}

/** A comma-separated list (news keywords, genres, tickers), items trimmed, empty items left out. */
export function readList(node: XmlNode, ctx: ValueContext, url?: string): string[] | undefined {
  const value = readText(node, ctx, url);
  if (value === undefined) return undefined;
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items.length > 0 ? items : undefined;
}

export function abbreviate(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
