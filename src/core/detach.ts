/**
 * Strings the cross-file rules keep until the end of a run must not pin the parser's buffers:
 * a value sliced from a decoded chunk keeps the whole chunk alive, so a URL set of a few MB
 * would hold the document. `detach` returns a copy of its own.
 */
export function detach(text: string): string {
  // Concatenation makes a cons string; slicing it flattens it into a new string (V8 copies
  // strings shorter than 13 characters anyway).
  return text.length < 13 ? text : ` ${text}`.slice(1);
}
