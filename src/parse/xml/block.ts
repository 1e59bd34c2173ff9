/**
 * A small tree of one block of a document (a `<url>`, a `<sitemap>`, a feed item): sitemaps are
 * streamed block by block, and each block, being small, is mapped to an entry as a whole. This
 * keeps the mapping code plain while memory stays bounded by the largest block.
 */
import type { Position } from '../../core/position.js';
import type { XmlAttribute } from './elements.js';

export interface XmlNode {
  uri: string;
  local: string;
  qname: string;
  attributes: readonly XmlAttribute[];
  children: XmlNode[];
  /** The node's own character data (not its descendants'). */
  text: string;
  /** Where the start tag is. */
  at: Position;
  /** Where the first character data is (the start tag when there is none). */
  valueAt: Position;
}

export function attribute(node: XmlNode, local: string): string | undefined {
  for (const a of node.attributes) if (a.local === local && a.uri === '') return a.value;
  return undefined;
}

/** All character data of a node and its descendants, in document order. */
export function textContent(node: XmlNode): string {
  if (node.children.length === 0) return node.text;
  let text = node.text;
  for (const child of node.children) text += textContent(child);
  return text;
}

/** Builds blocks from element events; limits what one block may hold. */
export class BlockBuilder {
  private readonly open: XmlNode[] = [];
  private nodes = 0;
  /** Set when the current block overflowed one of the limits (reported once per block). */
  private truncated = false;

  constructor(
    private readonly limits: { maxValueLength: number; maxNodesPerBlock: number },
    private readonly overflow: (message: string, at: Position) => void,
  ) {}

  get depth(): number {
    return this.open.length;
  }

  start(uri: string, local: string, qname: string, attributes: readonly XmlAttribute[], at: Position): void {
    const node: XmlNode = { uri, local, qname, attributes, children: [], text: '', at, valueAt: at };
    const parent = this.open[this.open.length - 1];
    if (parent !== undefined) {
      if (++this.nodes > this.limits.maxNodesPerBlock) {
        this.overflowOnce(
          `<${parent.qname}> holds more than ${this.limits.maxNodesPerBlock} elements; the rest are left out`,
          at,
        );
      } else parent.children.push(node);
    } else {
      this.nodes = 0;
      this.truncated = false;
    }
    this.open.push(node);
  }

  text(value: string, at: Position): void {
    const node = this.open[this.open.length - 1]!;
    // Where the text starts, leading whitespace included, however the text was cut into pieces (see end()).
    if (node.text === '' && node.children.length === 0) node.valueAt = at;
    if (node.text.length + value.length > this.limits.maxValueLength) {
      if (node.text.length < this.limits.maxValueLength) {
        node.text += value.slice(0, this.limits.maxValueLength - node.text.length);
        this.overflow(
          `the text of <${node.qname}> is longer than ${this.limits.maxValueLength} characters and was cut`,
          node.valueAt,
        );
      }
      return;
    }
    node.text += value;
  }

  /** Closes the current element; returns the block's root when it is the one closed. */
  end(): XmlNode | undefined {
    const node = this.open.pop();
    // Whitespace alone is no value: it is placed at the start tag.
    if (node !== undefined && node.valueAt !== node.at && node.text.trim() === '') node.valueAt = node.at;
    return this.open.length === 0 ? node : undefined;
  }

  private overflowOnce(message: string, at: Position): void {
    if (this.truncated) return;
    this.truncated = true;
    this.overflow(message, at);
  }
}
