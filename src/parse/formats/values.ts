/**
 * Reading one value out of an element, the lenient way: text is trimmed (and trimming reported
 * where it matters), child elements inside a text element are reported and their text used, and
 * a value that cannot be represented is dropped with the rule that says why. Values are checked
 * by the rules of core/rules, which the generator and the validator share.
 */
import { parseW3cDate } from '../../core/datetime.js';
import type { Changefreq } from '../../core/entry.js';
import {
  readChangefreq as readChangefreqRule,
  readPriority as readPriorityRule,
  readUrl as readRules,
  readVideoNumber as readVideoNumberRule,
  readW3cDate as readDateRule,
  readYesNo as readYesNoRule,
  type Checked,
  type UrlReading,
} from '../../core/rules/index.js';
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
 * An http(s) URL from a URL-typed element, read by the URL rule (core/rules/url.ts) as written:
 * whitespace around it and characters that must be percent-encoded are reported (URL-003) and
 * kept; a relative `loc` resolves against the base URL (URL-001, kept) or is dropped without one;
 * other schemes are dropped (URL-001). In an extension (`reading.field: 'extension'`), text that
 * is no URL ("Free License") is kept as written and flagged with the field's code, never resolved.
 */
export function readUrl(
  node: XmlNode,
  ctx: ValueContext,
  url?: string,
  reading: Pick<UrlReading, 'field' | 'code'> = { field: 'page' },
): string | undefined {
  const value = readText(node, ctx, url);
  return value === undefined ? undefined : checkUrl(value, textContent(node), node, ctx, url, reading);
}

/** readUrl for a value already read: `raw` is the text before trimming. */
export function checkUrl(
  value: string,
  raw: string,
  node: Pick<XmlNode, 'qname' | 'valueAt'>,
  ctx: ValueContext,
  url?: string,
  reading: Pick<UrlReading, 'field' | 'code'> = { field: 'page' },
): string | undefined {
  // The raw text, when it differs from the value by whitespace alone (not by removed characters).
  const text = raw.length !== value.length && raw.trim() === value ? raw : value;
  const checked = readRules(text, { mode: 'as-written', base: ctx.baseUrl, ...reading });
  // A page URL's problems name the URL itself; an extension's name the page it belongs to.
  const named = reading.field === 'page' ? (checked.value ?? url) : url;
  for (const found of checked.problems) {
    const message = `<${node.qname}>: ${found.message}${checked.value === undefined ? '; left out' : ''}`;
    ctx.report(found.code, message, node.valueAt, named, found.severity);
  }
  return checked.value;
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
  if (value === undefined || isValidW3cDate(value)) return value;
  report(readDateRule(value), node, ctx, url);
  return undefined;
}

/** changefreq, lower case (FREQ-001 for any other case, or for a word that is none). */
export function readChangefreq(node: XmlNode, ctx: ValueContext, url: string): Changefreq | undefined {
  const value = readText(node, ctx, url);
  return value === undefined ? undefined : report(readChangefreqRule(value), node, ctx, url);
}

/** priority, a decimal from 0.0 to 1.0 (PRIO-001). */
export function readPriority(node: XmlNode, ctx: ValueContext, url: string): number | undefined {
  const value = readText(node, ctx, url);
  return value === undefined ? undefined : report(readPriorityRule(value), node, ctx, url);
}

/** Reports a checker's problems at the element's value; the value, or undefined when it is left out. */
function report<T>(checked: Checked<T>, node: XmlNode, ctx: ValueContext, url?: string): T | undefined {
  for (const found of checked.problems) {
    const message = `<${node.qname}>: ${found.message}${checked.value === undefined ? '; left out' : ''}`;
    ctx.report(found.code, message, node.valueAt, url, found.severity);
  }
  return checked.value;
}

/** A video number (duration, rating, view count): a decimal without exponent, or undefined with VID-005. */
export function readVideoNumber(node: XmlNode, ctx: ValueContext, url?: string): number | undefined {
  const value = readText(node, ctx, url);
  return value === undefined ? undefined : report(readVideoNumberRule(value), node, ctx, url);
}

/** yes/no as a boolean (VID-006 when the case is off, or when it is neither). */
export function readYesNo(node: XmlNode, ctx: ValueContext, url?: string): boolean | undefined {
  const value = readText(node, ctx, url);
  return value === undefined ? undefined : report(readYesNoRule(value), node, ctx, url);
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
