/**
 * Feeds read as sitemaps: each RSS 2.0 / RSS 1.0 item or Atom entry becomes a url entry. The
 * link is the loc; `pubDate` (RFC 822), `dc:date`, `updated` (Atom 1.0) or `modified` (Atom 0.3)
 * the lastmod. An item without a usable link is left out with FEED-002.
 */
import { parseW3cDate } from '../../core/datetime.js';
import type { UrlEntry } from '../../core/entry.js';
import type { Position } from '../../core/position.js';
import type { LocatedEntry } from '../types.js';
import { attribute, textContent, type XmlNode } from '../xml/block.js';
import { rfc822ToW3c } from './rfc822.js';
import { checkUrl, abbreviate, type ValueContext } from './values.js';
import { looksAbsoluteHttp } from '../../core/url.js';

export const FEED_NS = {
  atom10: 'http://www.w3.org/2005/Atom',
  atom03: 'http://purl.org/atom/ns#',
  rss10: 'http://purl.org/rss/1.0/',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  dc: 'http://purl.org/dc/elements/1.1/',
} as const;

function child(node: XmlNode, uri: string, local: string): XmlNode | undefined {
  return node.children.find((c) => c.uri === uri && c.local === local);
}

/** An RSS 2.0 `<item>` (no namespace) or an RSS 1.0 `<item>` (the RSS 1.0 namespace). */
export function readRssItem(item: XmlNode, ctx: ValueContext): LocatedEntry | undefined {
  const link = child(item, item.uri, 'link') ?? guidLink(item);
  const text = link ? textContent(link).trim() : '';
  if (link === undefined || text === '') {
    ctx.report('FEED-002', 'a feed item without a <link> is left out', item.at);
    return undefined;
  }
  const loc = checkUrl(text, textContent(link), link, ctx);
  if (loc === undefined) return undefined;
  const fields: Record<string, Position> = { loc: link.valueAt };
  const entry: UrlEntry = { kind: 'url', loc };
  const pubDate = child(item, item.uri, 'pubDate');
  const dcDate = child(item, FEED_NS.dc, 'date');
  if (pubDate) {
    const value = textContent(pubDate).trim();
    const w3c = rfc822ToW3c(value) ?? (parseW3cDate(value).ok ? value : undefined);
    if (w3c === undefined)
      ctx.report(
        'FEED-002',
        `<pubDate> "${abbreviate(value)}" is not an RFC 822 date; left out`,
        pubDate.valueAt,
        loc,
        'warning',
      );
    else {
      entry.lastmod = w3c;
      fields['lastmod'] = pubDate.valueAt;
    }
  } else if (dcDate) setW3cLastmod(entry, fields, dcDate, ctx);
  return { entry, location: { line: item.at.line, column: item.at.column, fields } };
}

/** A `<guid>` that holds an absolute URL stands in for a missing `<link>` (whatever isPermaLink says). */
function guidLink(item: XmlNode): XmlNode | undefined {
  const guid = child(item, item.uri, 'guid');
  return guid && looksAbsoluteHttp(textContent(guid).trim()) ? guid : undefined;
}

/** An Atom 1.0 or 0.3 `<entry>`: the first link without rel, else the first rel="alternate". */
export function readAtomEntry(item: XmlNode, ctx: ValueContext): LocatedEntry | undefined {
  const links = item.children.filter(
    (c) => c.uri === item.uri && c.local === 'link' && attribute(c, 'href') !== undefined,
  );
  const link =
    links.find((l) => attribute(l, 'rel') === undefined) ??
    links.find((l) => attribute(l, 'rel')?.trim() === 'alternate');
  const href = link && attribute(link, 'href')!.trim();
  if (link === undefined || !href) {
    ctx.report('FEED-002', 'an Atom entry without a link to its page is left out', item.at);
    return undefined;
  }
  const loc = checkUrl(href, href, { qname: link.qname, valueAt: link.at }, ctx);
  if (loc === undefined) return undefined;
  const fields: Record<string, Position> = { loc: link.at };
  const entry: UrlEntry = { kind: 'url', loc };
  const date = child(item, item.uri, item.uri === FEED_NS.atom03 ? 'modified' : 'updated');
  if (date) setW3cLastmod(entry, fields, date, ctx);
  return { entry, location: { line: item.at.line, column: item.at.column, fields } };
}

function setW3cLastmod(entry: UrlEntry, fields: Record<string, Position>, node: XmlNode, ctx: ValueContext): void {
  const value = textContent(node).trim();
  if (parseW3cDate(value).ok) {
    entry.lastmod = value;
    fields['lastmod'] = node.valueAt;
  } else {
    ctx.report(
      'FEED-002',
      `<${node.qname}> "${abbreviate(value)}" is not an RFC 3339 date; left out`,
      node.valueAt,
      entry.loc,
      'warning',
    );
  }
}
