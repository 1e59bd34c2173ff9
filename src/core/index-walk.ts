/**
 * The rules of a walk down sitemap indexes, one set for every reader that follows them (the
 * sitemap tree over HTTP, `validate -r` over files and URLs): each document is read once however
 * often it is listed (a repeat is IDX-005), children are followed to a depth limit below the
 * document given (LIMIT-003 past it), and an index listed by an index is nested (IDX-002). The
 * readers word and place the diagnostics: the tree on its nodes, the validator at the listing.
 */
import type { DocumentKind } from './entry.js';

/** Index levels followed below a document given, unless the reader is told otherwise. */
export const DEFAULT_INDEX_DEPTH = 5;

/**
 * Where a walk remembers the documents it met, by URL: a Map, or anything that answers the same
 * (a big walk keeps fingerprints instead of the URLs).
 */
export interface MetDocuments<Document> {
  get(url: string): Document | undefined;
  set(url: string, document: Document): unknown;
}

/** What a walk has met, by URL, and how deep it goes. */
export class IndexWalk<Document> {
  constructor(
    readonly maxDepth: number = DEFAULT_INDEX_DEPTH,
    private readonly met: MetDocuments<Document> = new Map<string, Document>(),
  ) {}

  /** The document met at this URL (listed there, or redirected to it), if any: another listing is a repeat. */
  metAt(url: string): Document | undefined {
    return this.met.get(url);
  }

  /** Notes the document now known by this URL. */
  meet(url: string, document: Document): void {
    this.met.set(url, document);
  }

  /** Whether the children of an index `depth` levels below the document given (0: that one) are followed. */
  followsChildrenAt(depth: number): boolean {
    return depth < this.maxDepth;
  }
}

/**
 * The index that nests this document, when it is an index listed by one (`listedBy`): nesting,
 * which the protocol does not allow (IDX-002). Undefined otherwise.
 */
export function nestingIndex<Index>(kind: DocumentKind | undefined, listedBy: Index | undefined): Index | undefined {
  return kind === 'sitemapindex' ? listedBy : undefined;
}
