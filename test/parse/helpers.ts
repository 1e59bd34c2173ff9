/** Shared by the parser tests: read a whole source into entries and diagnostics. */
import type { Diagnostic } from '../../src/core/diagnostics.js';
import type { Entry } from '../../src/core/entry.js';
import { parseSitemap, type LocatedEntry, type ParseOptions, type SitemapSource } from '../../src/parse/index.js';

export interface ParseResult {
  entries: Entry[];
  located: LocatedEntry[];
  diagnostics: Diagnostic[];
  kind: string | undefined;
  codes: string[];
}

export async function parseAll(source: SitemapSource, options: ParseOptions = {}): Promise<ParseResult> {
  const parsed = parseSitemap(source, { limits: { maxDiagnostics: 100_000 }, ...options });
  const located: LocatedEntry[] = [];
  for await (const entry of parsed.located()) located.push(entry);
  const diagnostics = [...parsed.diagnostics];
  return {
    entries: located.map((l) => l.entry),
    located,
    diagnostics,
    kind: parsed.kind,
    codes: diagnostics.map((d) => d.code),
  };
}

export const parseText = (text: string, options: ParseOptions = {}) => parseAll({ text }, options);

/** A urlset document around `body`, with every extension namespace declared (the shared one). */
export { urlsetDocument as urlset } from '../helpers/site-server.js';

/** Bytes handed over in the given pieces, as a stream would. */
// eslint-disable-next-line @typescript-eslint/require-await -- async, as a stream is
export async function* inPieces(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    if (cut > from) yield bytes.subarray(from, cut);
    from = Math.max(from, cut);
  }
}
