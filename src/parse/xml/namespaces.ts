/**
 * Namespace scopes of an XML document: prefix → URI bindings that nest with elements. Scopes are
 * chained objects, so a lookup is one property read whatever the depth, and an element that
 * declares nothing costs nothing.
 */
import { NS } from '../../core/namespaces.js';

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/** Prefixes sitemaps often use without declaring them; read leniently as their usual namespace. */
export const CONVENTIONAL_PREFIXES: Readonly<Record<string, string>> = {
  image: NS.image,
  video: NS.video,
  news: NS.news,
  xhtml: NS.xhtml,
};

type Bindings = Record<string, string>;

export class NamespaceScopes {
  private bindings: Bindings;
  /** The element depth each open scope belongs to, with the bindings to restore when it closes. */
  private readonly frames: { depth: number; outer: Bindings }[] = [];

  constructor() {
    const root: Bindings = Object.create(null) as Bindings;
    root['xml'] = XML_NS;
    root['xmlns'] = XMLNS_NS;
    root[''] = '';
    this.bindings = root;
  }

  /** Opens a scope for the element at `depth` declaring `declarations` (prefix '' is the default). */
  declare(depth: number, declarations: readonly (readonly [string, string])[]): void {
    const outer = this.bindings;
    const scope = Object.create(outer) as Bindings;
    for (const [prefix, uri] of declarations) scope[prefix] = uri;
    this.frames.push({ depth, outer });
    this.bindings = scope;
  }

  /** Closes the scope of the element at `depth`, if it opened one. */
  close(depth: number): void {
    const top = this.frames[this.frames.length - 1];
    if (top !== undefined && top.depth === depth) {
      this.bindings = top.outer;
      this.frames.pop();
    }
  }

  /** The URI bound to `prefix` ('' for the default namespace), or undefined when unbound. */
  lookup(prefix: string): string | undefined {
    return this.bindings[prefix];
  }

  /** The prefixes bound to `uri`, innermost scope first, each in the order it was declared. */
  prefixesOf(uri: string): string[] {
    const prefixes: string[] = [];
    // for…in walks the scope's own bindings, then the outer scopes' (their prototypes).
    for (const prefix in this.bindings) if (this.bindings[prefix] === uri) prefixes.push(prefix);
    return prefixes;
  }
}
