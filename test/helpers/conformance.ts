/** The conformance corpus (test/conformance/corpus/manifest.json), as the tests read it. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { CONFORMANCE_DIR } from './paths.js';

/** One case of the manifest; `expect` holds only the keys upstream asserts (see its README). */
export interface ConformanceCase {
  id: string;
  file: string;
  format: string;
  /** The project the case came from (`owner/name` on GitHub, or a site), and the commit read. */
  source_repo: string;
  source_commit?: string | null;
  gzip?: boolean;
  base_url?: string | null;
  options?: Record<string, unknown>;
  expect: Record<string, unknown> & { valid_strict?: boolean | null };
}

export function loadManifest(): ConformanceCase[] {
  return JSON.parse(readFileSync(join(CONFORMANCE_DIR, 'manifest.json'), 'utf8')) as ConformanceCase[];
}

/** The case's file as stored (gzip cases stay compressed: the parser sniffs them). */
export function rawBytesOf(c: ConformanceCase): Buffer {
  return readFileSync(join(CONFORMANCE_DIR, c.file));
}

/** The case's document, gunzipped when the manifest says it is gzip. */
export function documentBytesOf(c: ConformanceCase): Buffer {
  const raw = rawBytesOf(c);
  return c.gzip ? gunzipSync(raw) : raw;
}
