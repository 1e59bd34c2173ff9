/**
 * A place in a document, as every diagnostic and every located entry names it: 1-based line and
 * column (columns count UTF-16 code units, as JavaScript strings do).
 */
export interface Position {
  line: number;
  column: number;
}
