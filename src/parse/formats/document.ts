/**
 * The XML document reader: decides from the root element what the document is (urlset,
 * sitemapindex, RSS, Atom, HTML or something else), checks the root's namespace, and turns each
 * block (url, sitemap, item, entry) into entries as soon as it closes.
 */
import type { DocumentKind } from '../../core/entry.js';
import { LEGACY_SITEMAP_NS, NS } from '../../core/namespaces.js';
import type { Position } from '../../core/position.js';
import type { Report } from '../diagnostics.js';
import type { EntryQueue } from '../emitted.js';
import type { LocatedEntry } from '../types.js';
import { BlockBuilder, type XmlNode } from '../xml/block.js';
import type { TextPositions, XmlAttribute, XmlHandler } from '../xml/tokenizer.js';
import { FEED_NS, readAtomEntry, readRssItem } from './feed.js';
import { readPlainBlocks, type PlainBlockOptions } from './plain-blocks.js';
import { CoreNames, readSitemapBlock, readUrlBlock } from './sitemap.js';
import type { ValueContext } from './values.js';

type Layout = 'urlset' | 'sitemapindex' | 'rss' | 'atom' | 'ignore';

export interface DocumentReaderOptions {
  maxValueLength: number;
  /** Whether entries from the fast path carry the positions of their fields (see EmittedEntry). */
  positions: boolean;
  /** Strict mode stops at the first error: markup problems are reported at once, not held for their URL. */
  strict: boolean;
  /** Where the current token is (the tokenizer's position). */
  position: () => Position;
  /** The namespace a prefix is bound to at the current token. */
  namespaceOf: (prefix: string) => string | undefined;
  /** Stops the tokenizer: nothing more is read once the root shows the document is not a sitemap. */
  stop: () => void;
  /** Receives each entry as its block closes. */
  out: EntryQueue;
}

export class XmlDocumentReader implements XmlHandler {
  kind: DocumentKind | undefined;
  private layout: Layout = 'ignore';
  private names = new CoreNames(NS.sitemap);
  private depth = 0;
  private inBlock = false;
  /** Inside the root and inside a `<url>` or `<sitemap>` block, indentation carries nothing. */
  insignificantWhitespaceDepth = 0;
  private readonly builder: BlockBuilder;
  /** What plain `<url>` and `<sitemap>` blocks are read with (see plain-blocks.ts). */
  private plainBlocks: PlainBlockOptions;
  /** Markup problems met inside the current `<url>` block, reported with its URL when it closes. */
  private heldProblems: { code: string; message: string; at: Position }[] = [];

  constructor(
    private readonly ctx: ValueContext,
    private readonly options: DocumentReaderOptions,
  ) {
    this.plainBlocks = {
      maxValueLength: options.maxValueLength,
      imagePrefix: undefined,
      xhtmlPrefix: undefined,
      positions: options.positions,
    };
    this.builder = new BlockBuilder(
      { maxValueLength: options.maxValueLength, maxNodesPerBlock: 100_000 },
      (message, at) => ctx.report('LIMIT-001', message, at),
    );
  }

  openElement(uri: string, local: string, attributes: readonly XmlAttribute[], qname: string): void {
    const depth = this.depth++;
    if (depth === 0) {
      this.openRoot(uri, local, qname);
      this.plainBlocks.imagePrefix = prefixOf(NS.image, attributes, this.options.namespaceOf);
      this.plainBlocks.xhtmlPrefix = prefixOf(NS.xhtml, attributes, this.options.namespaceOf);
      return;
    }
    if (this.inBlock) {
      this.builder.start(uri, local, qname, attributes, this.options.position());
    } else if (this.startsBlock(uri, local, depth)) {
      this.inBlock = true;
      this.builder.start(uri, local, qname, attributes, this.options.position());
    } else if (depth === 1) {
      this.outsideBlock(uri, qname);
    }
  }

  closeElement(): void {
    this.depth--;
    if (!this.inBlock) return;
    const block = this.builder.end();
    if (block === undefined) return;
    this.inBlock = false;
    this.readBlock(block);
  }

  text(value: string): void {
    if (this.inBlock) this.builder.text(value, this.options.position);
  }

  /** A run of `<url>` or `<sitemap>` blocks of the common shape, read straight from the text (see plain-blocks.ts); -1 for any other. */
  wholeElement(
    uri: string,
    local: string,
    qname: string,
    buf: string,
    contentStart: number,
    positions: TextPositions,
  ): number {
    const element = this.layout === 'urlset' ? 'url' : this.layout === 'sitemapindex' ? 'sitemap' : undefined;
    if (element === undefined || qname !== element || !this.names.isCore(uri)) return -1;
    return readPlainBlocks(
      element,
      buf,
      contentStart - element.length - 2,
      positions,
      this.plainBlocks,
      this.options.out,
    );
  }

  leaf(uri: string, local: string, qname: string, text: string, at: Position, valueAt: Position): void {
    if (this.inBlock) {
      this.builder.leaf(uri, local, qname, text, at, text.trim() === '' ? at : valueAt);
      return;
    }
    this.openElement(uri, local, [], qname);
    // Placed where the text starts, as when it comes in pieces.
    if (text !== '' && this.inBlock) this.builder.text(text, () => valueAt);
    this.closeElement();
  }

  private openRoot(uri: string, local: string, qname: string): void {
    const at = this.options.position();
    const name = local.toLowerCase();
    if (name === 'urlset' || name === 'sitemapindex') {
      this.kind = this.layout = name;
      this.names = new CoreNames(uri);
      this.insignificantWhitespaceDepth = 2;
      if (local !== name)
        this.ctx.report('XML-007', `element names are case-sensitive: <${qname}> should be <${name}>`, at);
      this.checkCoreNamespace(uri, qname, at);
    } else if (uri === '' && local === 'rss') {
      this.kind = this.layout = 'rss';
    } else if (uri === FEED_NS.rdf && local === 'RDF') {
      this.kind = this.layout = 'rss';
    } else if ((uri === FEED_NS.atom10 || uri === FEED_NS.atom03) && local === 'feed') {
      this.kind = this.layout = 'atom';
    } else if (name === 'html') {
      this.kind = 'html';
      this.ctx.report('FETCH-007', 'this is an HTML page, not a sitemap', at);
      this.options.stop();
    } else {
      this.kind = 'unknown';
      this.ctx.report(
        'XML-004',
        `the root element <${qname}> is not urlset, sitemapindex, rss, rdf:RDF or feed; nothing is read`,
        at,
      );
      this.options.stop();
    }
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

  private startsBlock(uri: string, local: string, depth: number): boolean {
    switch (this.layout) {
      case 'urlset':
        return depth === 1 && this.names.isCore(uri) && local.toLowerCase() === 'url';
      case 'sitemapindex':
        return depth === 1 && this.names.isCore(uri) && local.toLowerCase() === 'sitemap';
      case 'rss':
        return local === 'item' && (uri === '' || uri === FEED_NS.rss10);
      case 'atom':
        return local === 'entry' && (uri === FEED_NS.atom10 || uri === FEED_NS.atom03);
      default:
        return false;
    }
  }

  /** A child of the root that is not a block: foreign elements are ignored, core ones reported. */
  private outsideBlock(uri: string, qname: string): void {
    if (this.layout === 'urlset' && this.names.isCore(uri)) {
      this.ctx.report(
        'XML-007',
        `<${qname}> is not allowed in <urlset> (only <url>); ignored`,
        this.options.position(),
      );
    } else if (this.layout === 'sitemapindex' && this.names.isCore(uri)) {
      this.ctx.report(
        'IDX-001',
        `<${qname}> is not allowed in a sitemap index (only <sitemap>); ignored`,
        this.options.position(),
      );
    }
  }

  /**
   * A problem the tokenizer met in the markup (a raw `&` or `<`, a bad reference …). Inside a
   * `<url>` block it is held until the block closes, so that it names the URL it belongs to.
   */
  markupProblem(code: string, message: string, at: Position): void {
    if (this.inBlock && this.layout === 'urlset' && !this.options.strict) this.heldProblems.push({ code, message, at });
    else this.ctx.report(code, message, at);
  }

  /** Reports the problems still held (the document ended inside a block); `url` names their entry. */
  releaseProblems(url?: string): void {
    if (this.heldProblems.length === 0) return;
    const held = this.heldProblems;
    this.heldProblems = [];
    for (const { code, message, at } of held) this.ctx.report(code, message, at, url);
  }

  /**
   * Reads a `<url>` block that held markup problems: they are reported first, in the order they
   * were met, but named with the block's URL, which is known only once the block is read.
   */
  private readUrlBlockAfterHeld(block: XmlNode): LocatedEntry | undefined {
    const found: Parameters<Report>[] = [];
    const located = readUrlBlock(block, this.names, { ...this.ctx, report: (...problem) => found.push(problem) });
    this.releaseProblems(located?.entry.loc);
    for (const problem of found) this.ctx.report(...problem);
    return located;
  }

  private readBlock(block: XmlNode): void {
    const ctx = this.ctx;
    if (this.layout === 'urlset') {
      const located =
        this.heldProblems.length === 0 ? readUrlBlock(block, this.names, ctx) : this.readUrlBlockAfterHeld(block);
      if (located) this.options.out.emit(located);
    } else if (this.layout === 'sitemapindex') {
      for (const located of readSitemapBlock(block, this.names, ctx)) this.options.out.emit(located);
    } else {
      const located = this.layout === 'rss' ? readRssItem(block, ctx) : readAtomEntry(block, ctx);
      if (located) this.options.out.emit(located);
    }
  }
}

/**
 * A prefix the root binds to `uri` (and that stays bound to it there), if any. Only a well-formed
 * name counts: a broken declaration leaves those elements to the general path.
 */
function prefixOf(
  uri: string,
  attributes: readonly XmlAttribute[],
  namespaceOf: (prefix: string) => string | undefined,
): string | undefined {
  for (const attribute of attributes) {
    if (attribute.qname.startsWith('xmlns:') && PREFIX.test(attribute.local) && namespaceOf(attribute.local) === uri)
      return attribute.local;
  }
  return undefined;
}

/** An XML name without a colon, ASCII only (other prefixes are rare enough for the general path). */
const PREFIX = /^[A-Za-z_][\w.-]*$/;
