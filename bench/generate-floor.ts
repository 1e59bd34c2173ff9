/**
 * The practical floor of `sitemapkit generate FILE.jsonl`, piece by piece, for
 * generate.bench.ts --part cli: each piece runs in its own process (this script, which loads
 * nothing else), and the bench prints its CPU time next to sitemapkit's.
 *
 *   node dist/bench/generate-floor.js read|parse|write|dedupe FILE.jsonl [OUT_DIR]
 *
 *   read    the file read 64 KiB at a time into one buffer, decoded, its lines found
 *   parse   + JSON.parse of every line
 *   write   + the XML of each entry by string concatenation (as bench's naive writer writes it),
 *           gathered in 64 KiB chunks and written, 50,000 URLs a file: no rule checked, no
 *           duplicate found, no digest
 *   dedupe  prints the CPU seconds of the duplicate set's adds alone (reading not counted)
 */
import { closeSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { FingerprintSet } from '../src/core/fingerprint-set.js';
import type { UrlEntry } from '../src/core/index.js';
import { NAIVE_URLSET_HEADER, naiveUrlXml } from './naive-xml.js';

export type Floor = 'read' | 'parse' | 'write' | 'dedupe';
type Page = Omit<UrlEntry, 'kind'>;

const CHUNK = 1 << 16;

/** Each chunk of the file's text, read into one buffer. */
function* textChunks(path: string): Generator<string> {
  const fd = openSync(path, 'r');
  const buffer = Buffer.allocUnsafe(CHUNK);
  const decoder = new TextDecoder();
  for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer))
    yield decoder.decode(buffer.subarray(0, read), { stream: true });
  closeSync(fd);
}

function* lines(path: string): Generator<string> {
  let carry = '';
  for (const chunk of textChunks(path)) {
    const text = carry + chunk;
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      if (end > start) yield text.slice(start, end);
      start = end + 1;
    }
    carry = text.slice(start);
  }
  if (carry.trim() !== '') yield carry;
}

function* pages(path: string): Generator<Page> {
  for (const line of lines(path)) yield JSON.parse(line) as Page;
}

function write(path: string, outDir: string): void {
  mkdirSync(outDir, { recursive: true });
  let fd = -1;
  let files = 0;
  let inFile = 50_000;
  let xml = '';
  const flush = (): void => {
    writeSync(fd, Buffer.from(xml));
    xml = '';
  };
  for (const page of pages(path)) {
    if (inFile === 50_000) {
      if (fd >= 0) {
        xml += '</urlset>\n';
        flush();
        closeSync(fd);
      }
      fd = openSync(join(outDir, `sitemap-${files++}.xml`), 'w');
      xml = NAIVE_URLSET_HEADER;
      inFile = 0;
    }
    xml += naiveUrlXml(page);
    inFile++;
    if (xml.length >= CHUNK) flush();
  }
  xml += '</urlset>\n';
  flush();
  closeSync(fd);
}

function dedupe(path: string): number {
  const seen = new FingerprintSet(1 << 20);
  const batch: string[] = [];
  let micros = 0;
  const addBatch = (): void => {
    const start = process.cpuUsage();
    for (const loc of batch) seen.add(loc);
    const used = process.cpuUsage(start);
    micros += used.user + used.system;
    batch.length = 0;
  };
  for (const page of pages(path)) if (batch.push(page.loc) === 4096) addBatch();
  addBatch();
  return micros / 1e6;
}

const [kind, path, outDir] = process.argv.slice(2) as [string, string, string | undefined];
let count = 0;
if (kind === 'read') for (const _ of lines(path)) count++;
else if (kind === 'parse') for (const _ of pages(path)) count++;
else if (kind === 'write') write(path, outDir ?? '.');
else if (kind === 'dedupe') console.log(dedupe(path));
else throw new Error(`unknown floor "${kind}": read, parse, write or dedupe`);
if ((kind === 'read' || kind === 'parse') && count === 0) throw new Error(`${path} has no lines`);
