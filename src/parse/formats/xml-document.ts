/**
 * Reading one XML document, in layers: the lexer cuts the text into tokens (xml/tokenizer.ts),
 * the element layer makes elements of them (xml/elements.ts), and the document reader turns the
 * elements into entries (document.ts). In front of the lexer sits the sitemap fast path
 * (plain-blocks.ts): the document reader pauses the lexer between the blocks of a urlset or an
 * index, and there the fast path reads the run of plain blocks that follows, hands back to the
 * lexer what it does not take, or waits for a block cut by the end of the text.
 *
 * Positions have one owner, the line index, kept up to date by the lexer and asked by the others;
 * problems go out through EntryProblems, which names them with the URL of their entry.
 */
import { NS } from '../../core/namespaces.js';
import type { Position } from '../../core/position.js';
import { EntryProblems, type Report } from '../diagnostics.js';
import type { EntryQueue } from '../emitted.js';
import { XmlElements, type RepairCount } from '../xml/elements.js';
import { LineIndex } from '../xml/line-index.js';
import { XmlTokenizer } from '../xml/tokenizer.js';
import { XmlDocumentReader } from './document.js';
import { PlainBlockReader } from './plain-blocks.js';
import { plainPrefix } from './plain-patterns.js';

export interface XmlDocumentOptions {
  maxValueLength: number;
  /** Whether every entry carries the positions of its fields (the fast path leaves them out otherwise). */
  positions: boolean;
  /** Where the document was fetched from; relative URLs resolve against it. */
  baseUrl: string | undefined;
}

export class XmlDocument {
  private readonly lines = new LineIndex();
  private readonly problems: EntryProblems;
  private readonly reader: XmlDocumentReader;
  private readonly elements: XmlElements;
  private readonly lexer: XmlTokenizer;
  /** The fast path, made at the first pause, once the root is known ('none': this document's blocks are never plain). */
  private plainBlocks: PlainBlockReader | 'none' | undefined;

  constructor(
    report: Report,
    private readonly options: XmlDocumentOptions,
    private readonly out: EntryQueue,
    count: RepairCount,
  ) {
    this.problems = new EntryProblems(report);
    const problem = this.problems.report;
    this.reader = new XmlDocumentReader(
      { report: problem, baseUrl: options.baseUrl },
      { maxValueLength: options.maxValueLength, problems: this.problems, out },
    );
    this.elements = new XmlElements(this.reader, this.lines, problem, count);
    this.lexer = new XmlTokenizer(this.elements, this.lines, problem);
  }

  get kind() {
    return this.reader.kind;
  }

  /** True once nothing more can come out of the document (HTML, an unknown root). */
  get finished(): boolean {
    return this.kind === 'html' || this.kind === 'unknown';
  }

  write(text: string): void {
    if (this.lexer.append(text)) this.read(false);
  }

  /** Reads the blocks complete in what is held, without waiting for more text: the input broke off. */
  flush(): void {
    this.read(false);
  }

  end(): void {
    this.read(true);
    this.lexer.end();
    this.reader.end();
  }

  /** Where a document offset is (for offsets of the text in hand: those of the entries just read). */
  locate(offset: number): Position {
    return this.lines.positionOf(offset);
  }

  private read(final: boolean): void {
    for (;;) {
      this.lexer.scan(final);
      if (!this.lexer.paused || this.readPlainBlocks(final) === 'wait') return;
      this.lexer.resume();
    }
  }

  /** At a pause between blocks: the fast path reads on from where the lexer stands. */
  private readPlainBlocks(final: boolean): 'general' | 'wait' {
    const plainBlocks = (this.plainBlocks ??= this.plainBlockReader());
    if (plainBlocks === 'none') return 'general';
    const lexer = this.lexer;
    const run = plainBlocks.read(lexer.text, lexer.index, lexer.offset, final);
    lexer.skipTo(run.end);
    if (run.next === 'wait') lexer.waitForMore();
    return run.next;
  }

  private plainBlockReader(): PlainBlockReader | 'none' {
    const kind = this.reader.kind;
    const element = kind === 'urlset' ? 'url' : kind === 'sitemapindex' ? 'sitemap' : undefined;
    // Plain blocks are written `<url>`: in the default namespace, which must be the protocol's (or none).
    if (element === undefined || !this.reader.isCore(this.elements.namespaceOf('') ?? '')) return 'none';
    return new PlainBlockReader(
      {
        element,
        imagePrefix: plainPrefix(this.elements.prefixesOf(NS.image)),
        xhtmlPrefix: plainPrefix(this.elements.prefixesOf(NS.xhtml)),
      },
      { maxValueLength: this.options.maxValueLength, positions: this.options.positions },
      this.lines,
      this.out,
    );
  }
}
