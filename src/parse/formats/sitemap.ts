/**
 * `<urlset>` and `<sitemapindex>` blocks → entries. Core elements are matched by namespace URI:
 * the root's namespace (the protocol's, or a missing, legacy or misspelt one already reported
 * by the document reader) and the empty namespace both count as core. Upper-case core names are
 * read with XML-007.
 */
import type { SitemapRef, UrlEntry } from '../../core/entry.js';
import { NS } from '../../core/namespaces.js';
import type { Position } from '../../core/position.js';
import type { LocatedEntry } from '../types.js';
import type { XmlNode } from '../xml/block.js';
import { readAlternate, readImage, readNews, readVideo, type BlockContext } from './extensions.js';
import { setField, SITEMAP_FIELDS, URL_FIELDS, type Field, type FieldProperty, type ValueKind } from './fields.js';
import {
  checkUrl,
  readChangefreq,
  readPriority,
  readText,
  readUrl,
  readW3cDate,
  abbreviate,
  type ValueContext,
} from './values.js';

const URL_CHILDREN: readonly string[] = URL_FIELDS.map((field) => field.tag);
const SITEMAP_CHILDREN: readonly string[] = SITEMAP_FIELDS.map((field) => field.tag);
const EXTENSION_NAMESPACES = new Set<string>([NS.image, NS.video, NS.news, NS.xhtml]);

export class CoreNames {
  constructor(private readonly rootUri: string) {}

  isCore(uri: string): boolean {
    return uri === this.rootUri || uri === '' || uri === NS.sitemap;
  }

  /** The core name a child stands for (`LOC` → loc, reported), or undefined for a foreign element. */
  coreName(node: XmlNode, ctx: ValueContext, url?: string): string | undefined {
    if (!this.isCore(node.uri)) return undefined;
    if (URL_CHILDREN.includes(node.local)) return node.local;
    const lower = node.local.toLowerCase();
    if (lower !== node.local && URL_CHILDREN.includes(lower)) {
      ctx.report('XML-007', `element names are case-sensitive: <${node.qname}> should be <${lower}>`, node.at, url);
    }
    return lower;
  }
}

/** Reads one `<url>` block; undefined when it has no usable loc (XML-009 / URL-001 already said why). */
export function readUrlBlock(block: XmlNode, names: CoreNames, ctx: ValueContext): LocatedEntry | undefined {
  // The first of each field, by its rank in URL_FIELDS.
  const first: (XmlNode | undefined)[] = URL_FIELDS.map(() => undefined);
  let repeated: XmlNode[] | undefined;
  let misplaced: XmlNode[] | undefined;
  let extensions: XmlNode[] | undefined;
  let order = 0;
  let outOfOrder: XmlNode | undefined;
  for (const child of block.children) {
    const name = names.coreName(child, ctx);
    if (name === undefined) {
      if (EXTENSION_NAMESPACES.has(child.uri)) {
        (extensions ??= []).push(child);
        order = URL_CHILDREN.length;
      }
      continue;
    }
    const rank = URL_CHILDREN.indexOf(name);
    if (rank === -1) {
      (misplaced ??= []).push(child);
      continue;
    }
    if (rank < order && outOfOrder === undefined) outOfOrder = child;
    order = Math.max(order, rank);
    if (first[rank] === undefined) first[rank] = child;
    else (repeated ??= []).push(child);
  }
  const locNode = first[0];
  const fields: Record<string, Position> = {};
  const loc = locNode ? readUrl(locNode, ctx) : bareTextUrl(block, ctx);
  // Reported once the loc is known, so that they name the URL they belong to.
  for (const child of misplaced ?? [])
    ctx.report('XML-007', `<${child.qname}> is not allowed in <${block.qname}>; ignored`, child.at, loc);
  if (loc === undefined) {
    if (locNode) ctx.report('XML-009', `<${block.qname}> has no usable <loc>; the entry is left out`, block.at);
    return undefined;
  }
  fields['loc'] = (locNode ?? block).valueAt;
  for (const extra of repeated ?? [])
    ctx.report('XML-008', `<${extra.qname}> appears more than once; the first is kept`, extra.at, loc);
  if (outOfOrder) {
    ctx.report(
      'XML-011',
      `<${outOfOrder.qname}> comes after elements the schema puts after it (order: ${URL_CHILDREN.join(', ')}, extensions)`,
      outOfOrder.at,
      loc,
    );
  }
  const entry: UrlEntry = { kind: 'url', loc };
  readFields(entry, URL_FIELDS, first, ctx, fields);
  if (extensions !== undefined)
    readExtensions(entry, extensions, { report: ctx.report, baseUrl: ctx.baseUrl, url: loc, fields });
  return { entry, location: { line: block.at.line, column: block.at.column, fields } };
}

function readExtensions(entry: UrlEntry, nodes: XmlNode[], ctx: BlockContext): void {
  for (const node of nodes) {
    if (node.uri === NS.image && node.local === 'image') {
      const image = readImage(node, entry.images?.length ?? 0, ctx);
      if (image) (entry.images ??= []).push(image);
    } else if (node.uri === NS.video && node.local === 'video') {
      const video = readVideo(node, entry.videos?.length ?? 0, ctx);
      if (video) (entry.videos ??= []).push(video);
    } else if (node.uri === NS.news && node.local === 'news') {
      if (entry.news !== undefined) {
        ctx.report('XML-008', `<${node.qname}> appears more than once in a <url>; the first is kept`, node.at, ctx.url);
        continue;
      }
      const news = readNews(node, ctx);
      if (news) entry.news = news;
    } else if (node.uri === NS.xhtml && node.local === 'link') {
      const alternate = readAlternate(node, entry.alternates?.length ?? 0, ctx);
      if (alternate) (entry.alternates ??= []).push(alternate);
    } else {
      ctx.report('XML-007', `<${node.qname}> is not allowed directly in <url>; ignored`, node.at, ctx.url);
    }
  }
}

/**
 * Reads one `<sitemap>` block of an index. A `<loc>` after the first starts a new reference (the
 * way real broken indexes are meant), and a lastmod belongs to the loc before it.
 */
export function readSitemapBlock(block: XmlNode, names: CoreNames, ctx: ValueContext): LocatedEntry[] {
  // Each group holds the nodes of one reference, by their rank in SITEMAP_FIELDS (the loc first).
  const groups: (XmlNode | undefined)[][] = [];
  for (const child of block.children) {
    const name = names.coreName(child, ctx);
    if (name === undefined) continue;
    const rank = SITEMAP_CHILDREN.indexOf(name);
    if (rank === -1) {
      ctx.report('IDX-001', `<${child.qname}> does not belong in a <sitemap> of an index; ignored`, child.at);
      continue;
    }
    let group = groups[groups.length - 1];
    if (rank === 0) {
      if (group?.[0] !== undefined)
        ctx.report('XML-008', `a second <loc> in one <sitemap>: read as another sitemap`, child.at);
      if (group === undefined || group[0] !== undefined) groups.push((group = []));
    } else {
      if (group === undefined) groups.push((group = []));
      else if (group[rank] !== undefined) {
        ctx.report('XML-008', `<${child.qname}> appears more than once in a <sitemap>; the first is kept`, child.at);
        continue;
      }
      if (group[0] === undefined) ctx.report('XML-011', `<${child.qname}> should come after <loc>`, child.at);
    }
    group[rank] = child;
  }
  if (groups.length === 0) groups.push([]);
  const entries: LocatedEntry[] = [];
  for (const group of groups) {
    const locNode = group[0];
    const loc = locNode ? readUrl(locNode, ctx) : bareTextUrl(block, ctx);
    if (loc === undefined) continue;
    const fields: Record<string, Position> = { loc: (locNode ?? block).valueAt };
    const ref: SitemapRef = { kind: 'sitemap', loc };
    readFields(ref, SITEMAP_FIELDS, group, ctx, fields);
    entries.push({ entry: ref, location: { line: block.at.line, column: block.at.column, fields } });
  }
  return entries;
}

/**
 * Reads the fields after the loc (`nodes` by their rank in `table`) into `entry`, and where their
 * values are into `fields`; a value that cannot be read is left out (its reader said why).
 */
function readFields(
  entry: UrlEntry | SitemapRef,
  table: readonly Field<FieldProperty>[],
  nodes: readonly (XmlNode | undefined)[],
  ctx: ValueContext,
  fields: Record<string, Position>,
): void {
  for (let rank = 1; rank < table.length; rank++) {
    const node = nodes[rank];
    if (node === undefined) continue;
    const { property, kind } = table[rank]!;
    const value = readField(kind, node, ctx, entry.loc);
    if (value === undefined) continue;
    setField(entry, property, value);
    fields[property] = node.valueAt;
  }
}

/** How the general path reads each kind of value (the fast path's counterpart is PLAIN_VALUES in plain-patterns.ts). */
export function readField(kind: ValueKind, node: XmlNode, ctx: ValueContext, url: string): string | number | undefined {
  switch (kind) {
    case 'url':
      return readUrl(node, ctx, url);
    case 'date':
      return readW3cDate(node, ctx, url);
    case 'changefreq':
      return readChangefreq(node, ctx, url);
    case 'priority':
      return readPriority(node, ctx, url);
    case 'text':
      return readText(node, ctx, url);
  }
}

/** A block without `<loc>`: its bare text is read as the URL when it holds one (XML-009 either way). */
function bareTextUrl(block: XmlNode, ctx: ValueContext): string | undefined {
  const text = block.text.trim();
  if (text === '') {
    ctx.report('XML-009', `<${block.qname}> has no <loc>; the entry is left out`, block.at);
    return undefined;
  }
  ctx.report(
    'XML-009',
    `<${block.qname}> has no <loc>; its bare text "${abbreviate(text)}" is read as the URL`,
    block.at,
  );
  return checkUrl(text, block.text, { qname: block.qname, valueAt: block.valueAt }, ctx);
}
