/**
 * The XML document reader: decides from the root element what the document is (urlset,
 * sitemapindex, RSS, Atom, HTML or something else), checks the root's namespace, and turns each
 * block (url, sitemap, item, entry) into entries as soon as it closes. It reads the element events
 * of elements.ts, and what it answers (a Flow) stops a document that is no sitemap, and pauses the
 * lexer between the blocks of a sitemap, where the fast path may read on (see xml-document.ts).
 */
import type { DocumentKind } from '../../core/entry.js';
import { LEGACY_SITEMAP_NS, NS } from '../../core/namespaces.js';
import type { Position } from '../../core/position.js';
import type { EntryProblems } from '../diagnostics.js';
import type { EntryQueue } from '../emitted.js';
import { BlockBuilder, type XmlNode } from '../xml/block.js';
import type { XmlAttribute, XmlHandler } from '../xml/elements.js';
import type { Flow } from '../xml/tokenizer.js';
import { FEED_NS, readAtomEntry, readRssItem } from './feed.js';
import { SITEMAP_FIELDS, URL_FIELDS } from './fields.js';
import { CoreNames, readSitemapBlock, readUrlBlock } from './sitemap.js';
import type { ValueContext } from './values.js';

type Layout = 'urlset' | 'sitemapindex' | 'rss' | 'atom' | 'ignore';

const URL_TAGS: ReadonlySet<string> = new Set(URL_FIELDS.map((field) => field.tag));
const SITEMAP_TAGS: ReadonlySet<string> = new Set(SITEMAP_FIELDS.map((field) => field.tag));

export interface DocumentReaderOptions {
  maxValueLength: number;
  /** Names the problems met inside a `<url>` with its URL; `ctx.report` must report through it. */
  problems: EntryProblems;
  /** Receives each entry as its block closes. */
  out: EntryQueue;
}

export class XmlDocumentReader implements XmlHandler {
  kind: DocumentKind | undefined;
  private layout: Layout = 'ignore';
  private names = new CoreNames(NS.sitemap);
  private depth = 0;
  private inBlock = false;
  /** The depth the open block started at. */
  private blockDepth = 0;
  /** The depth of the open field of a sitemap's block (0 when none is open). */
  private fieldDepth = 0;
  private readonly builder: BlockBuilder;

  constructor(
    private readonly ctx: ValueContext,
    private readonly options: DocumentReaderOptions,
  ) {
    this.builder = new BlockBuilder(
      { maxValueLength: options.maxValueLength, maxNodesPerBlock: 100_000 },
      (message, at) => ctx.report('LIMIT-001', message, at),
    );
  }

  /** Whether `uri` is a namespace of the sitemap protocol's elements in this document. */
  isCore(uri: string): boolean {
    return this.names.isCore(uri);
  }

  openElement(uri: string, local: string, attributes: readonly XmlAttribute[], qname: string, at: Position): Flow {
    const depth = this.depth++;
    if (depth === 0) return this.openRoot(uri, local, qname, at);
    if (this.inBlock) {
      if (depth === this.blockDepth + 1 && this.isField(uri, local)) this.fieldDepth = depth;
      this.builder.start(uri, local, qname, attributes, at);
    } else if (this.startsBlock(uri, local, depth)) {
      this.inBlock = true;
      this.blockDepth = depth;
      if (this.layout === 'urlset') this.options.problems.open();
      this.builder.start(uri, local, qname, attributes, at);
    } else if (depth === 1) {
      this.outsideBlock(uri, qname, at);
    }
    return 'continue';
  }

  /** Between the blocks of a sitemap (back in its root), the fast path may read on. */
  closeElement(): Flow {
    if (--this.depth === this.fieldDepth) this.fieldDepth = 0;
    if (this.inBlock) {
      const block = this.builder.end();
      if (block !== undefined) {
        this.inBlock = false;
        this.readBlock(block);
      }
    }
    return this.depth === 1 && this.isSitemap ? 'pause' : 'continue';
  }

  text(value: string, at: Position): void {
    if (this.inBlock) this.builder.text(value, at);
  }

  /** Whitespace alone between the fields of a sitemap's block is indentation; elsewhere in a block, it is text. */
  whitespace(value: string, at: Position): void {
    if (this.inBlock && !(this.isSitemap && this.depth === this.blockDepth + 1)) this.builder.text(value, at);
  }

  /**
   * A block belongs directly in the root of a sitemap, and never inside another block of a feed;
   * a field of a sitemap's block holds text, never another field. Met deeper, the elements open
   * down there have lost their end tags (see XmlHandler).
   */
  depthFor(uri: string, local: string): number | undefined {
    if (this.isBlock(uri, local)) {
      if (this.isSitemap) return 1;
      return this.inBlock ? this.blockDepth : undefined;
    }
    return this.fieldDepth !== 0 && this.isField(uri, local) ? this.fieldDepth : undefined;
  }

  /** The document ended: the problems of a block left open go out without a URL. */
  end(): void {
    if (this.inBlock && this.layout === 'urlset') this.options.problems.close(undefined);
  }

  private openRoot(uri: string, local: string, qname: string, at: Position): Flow {
    const name = local.toLowerCase();
    if (name === 'urlset' || name === 'sitemapindex') {
      this.kind = this.layout = name;
      this.names = new CoreNames(uri);
      if (local !== name)
        this.ctx.report('XML-007', `element names are case-sensitive: <${qname}> should be <${name}>`, at);
      this.checkCoreNamespace(uri, qname, at);
      return 'pause';
    }
    if ((uri === '' && local === 'rss') || (uri === FEED_NS.rdf && local === 'RDF')) {
      this.kind = this.layout = 'rss';
    } else if ((uri === FEED_NS.atom10 || uri === FEED_NS.atom03) && local === 'feed') {
      this.kind = this.layout = 'atom';
    } else if (name === 'html') {
      this.kind = 'html';
      this.ctx.report('FETCH-007', 'this is an HTML page, not a sitemap', at);
      return 'stop';
    } else {
      this.kind = 'unknown';
      this.ctx.report(
        'XML-004',
        `the root element <${qname}> is not urlset, sitemapindex, rss, rdf:RDF or feed; nothing is read`,
        at,
      );
      return 'stop';
    }
    return 'continue';
  }

  private checkCoreNamespace(uri: string, qname: string, at: Position): void {
    if (uri === NS.sitemap) return;
    const expected = `xmlns="${NS.sitemap}"`;
    const message =
      uri === ''
        ? `<${qname}> has no namespace; add ${expected}`
        : (LEGACY_SITEMAP_NS as readonly string[]).includes(uri)
          ? `<${qname}> uses Google's retired namespace ${uri}; use ${expected}`
          : `<${qname}> has the wrong namespace ${uri}; use ${expected}`;
    this.ctx.report('XML-004', `${message} (read anyway)`, at);
  }

  /** A urlset or an index, whose blocks are children of the root. */
  private get isSitemap(): boolean {
    return this.layout === 'urlset' || this.layout === 'sitemapindex';
  }

  private startsBlock(uri: string, local: string, depth: number): boolean {
    return (depth === 1 || !this.isSitemap) && this.isBlock(uri, local);
  }

  /** Whether an element of this name is a block of the document (wherever it stands). */
  private isBlock(uri: string, local: string): boolean {
    switch (this.layout) {
      case 'urlset':
        return isName(local, 'url') && this.names.isCore(uri);
      case 'sitemapindex':
        return isName(local, 'sitemap') && this.names.isCore(uri);
      case 'rss':
        return local === 'item' && (uri === '' || uri === FEED_NS.rss10);
      case 'atom':
        return local === 'entry' && (uri === FEED_NS.atom10 || uri === FEED_NS.atom03);
      default:
        return false;
    }
  }

  /** Whether an element of this name is a field of a sitemap's block (fields.ts). */
  private isField(uri: string, local: string): boolean {
    const tags = this.layout === 'urlset' ? URL_TAGS : this.layout === 'sitemapindex' ? SITEMAP_TAGS : undefined;
    return tags !== undefined && this.names.isCore(uri) && (tags.has(local) || tags.has(local.toLowerCase()));
  }

  /** A child of the root that is not a block: foreign elements are ignored, core ones reported. */
  private outsideBlock(uri: string, qname: string, at: Position): void {
    if (this.layout === 'urlset' && this.names.isCore(uri)) {
      this.ctx.report('XML-007', `<${qname}> is not allowed in <urlset> (only <url>); ignored`, at);
    } else if (this.layout === 'sitemapindex' && this.names.isCore(uri)) {
      this.ctx.report('IDX-001', `<${qname}> is not allowed in a sitemap index (only <sitemap>); ignored`, at);
    }
  }

  private readBlock(block: XmlNode): void {
    const { ctx, options } = this;
    switch (this.layout) {
      case 'urlset': {
        const located = readUrlBlock(block, this.names, ctx);
        options.problems.close(located?.entry.loc);
        if (located) options.out.emit(located);
        break;
      }
      case 'sitemapindex':
        for (const located of readSitemapBlock(block, this.names, ctx)) options.out.emit(located);
        break;
      default: {
        const located = this.layout === 'rss' ? readRssItem(block, ctx) : readAtomEntry(block, ctx);
        if (located) options.out.emit(located);
      }
    }
  }
}

/** Whether `local` is `name`, in any case (upper-case core names are read, with XML-007). */
function isName(local: string, name: string): boolean {
  return local.length === name.length && (local === name || local.toLowerCase() === name);
}
