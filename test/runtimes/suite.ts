/**
 * The shared case suite: runs every case of cases.ts (inputs and expected outputs as data)
 * against `sitemapkit/web` as the runtime at hand loads it, and says which passed. It uses only
 * what every runtime has (no Node built-in, no test framework), so Node, Deno, Bun and workerd
 * run this same file; each host (node.test.ts, host.ts, worker.ts) hands it the module it
 * imported and reports the results.
 */
import type * as Web from 'sitemapkit/web';
import {
  CASES,
  type Case,
  type ParseCase,
  type ServeCase,
  type ServeStep,
  type SourceSpec,
  type ValidateCase,
  type WriteCase,
} from './cases.js';

export type WebApi = typeof Web;

export interface CaseResult {
  name: string;
  ok: boolean;
  /** What differed (or what was thrown), when the case failed. */
  detail?: string;
}

/** Runs the cases (all of them by default), one after the other. */
export async function runCases(web: WebApi, cases: readonly Case[] = CASES): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const one of cases) {
    try {
      const mismatch = await runCase(web, one);
      results.push(
        mismatch === undefined ? { name: one.name, ok: true } : { name: one.name, ok: false, detail: mismatch },
      );
    } catch (error) {
      results.push({ name: one.name, ok: false, detail: `threw ${describe(error)}` });
    }
  }
  return results;
}

function runCase(web: WebApi, one: Case): Promise<string | undefined> {
  switch (one.kind) {
    case 'parse':
      return runParse(web, one);
    case 'validate':
      return runValidate(web, one);
    case 'write':
      return runWrite(web, one);
    case 'serve':
      return runServe(web, one);
  }
}

// ---- parse -------------------------------------------------------------------------------------

async function runParse(web: WebApi, one: ParseCase): Promise<string | undefined> {
  const parsed = web.parseSitemap(await sourceOf(one.source), one.options ?? {});
  const entries: unknown[] = [];
  let thrown: string | undefined;
  try {
    if (one.expect.located) {
      for await (const { entry, location } of parsed.located())
        entries.push({ entry, at: `${location.line}:${location.column}` });
    } else {
      for await (const entry of parsed) entries.push(entry);
    }
  } catch (error) {
    thrown = error instanceof web.ParseError ? `ParseError ${codeOf(error.diagnostic)}` : describe(error);
  }
  const actual: Record<string, unknown> = {
    kind: parsed.kind ?? null,
    entries,
    diagnostics: parsed.diagnostics.map(codeOf),
  };
  if (one.expect.thrown !== undefined || thrown !== undefined) actual.thrown = thrown ?? null;
  if (one.expect.gzip !== undefined) actual.gzip = parsed.stats.gzip;
  const expected: Record<string, unknown> = { ...one.expect };
  delete expected.located;
  return difference(expected, actual);
}

// ---- validate ----------------------------------------------------------------------------------

async function runValidate(web: WebApi, one: ValidateCase): Promise<string | undefined> {
  const { now, ...rest } = one.options ?? {};
  const result = await web.validateSitemap(await sourceOf(one.source), {
    ...rest,
    ...(now === undefined ? {} : { now: new Date(now) }),
  });
  return difference(one.expect, {
    kind: result.kind ?? null,
    valid: result.valid,
    urls: result.urls,
    errors: result.errors,
    warnings: result.warnings,
    diagnostics: result.diagnostics.map(codeOf),
  });
}

// ---- write -------------------------------------------------------------------------------------

async function runWrite(web: WebApi, one: WriteCase): Promise<string | undefined> {
  const problems: string[] = [];
  const { now, ...rest } = one.options;
  let pulled = 0;
  const entries = one.entries ?? generated(one.generate!);
  const counted = (function* () {
    for (const entry of entries) {
      pulled++;
      yield entry;
    }
  })();
  const stream = web.sitemapStream(one.async ? toAsync(counted) : counted, {
    ...rest,
    ...(now === undefined ? {} : { now: new Date(now) }),
    onProblem: (problem) => problems.push(`${codeOf(problem)} ${problem.url ?? ''}`.trim()),
  });
  if (one.expect.pulledAtMost !== undefined) {
    // A consumer that reads one chunk and stops: the source must not have been read ahead.
    const reader = stream.getReader();
    await reader.read();
    await tick();
    const pulledAfterOne = pulled;
    await reader.cancel();
    return pulledAfterOne <= one.expect.pulledAtMost && pulledAfterOne > 0
      ? undefined
      : `pulled ${pulledAfterOne} entries for one chunk (expected 1 to ${one.expect.pulledAtMost})`;
  }
  let bytes: Uint8Array;
  let thrown: string | undefined;
  try {
    bytes = await readAll(stream);
  } catch (error) {
    thrown = describe(error);
    bytes = new Uint8Array();
  }
  const text = one.options.gzip ? await gunzipText(bytes) : new TextDecoder().decode(bytes);
  const actual: Record<string, unknown> = { problems };
  if (one.expect.xml !== undefined) actual.xml = text;
  if (one.expect.locs !== undefined) actual.locs = locsOf(text);
  if (one.expect.thrown !== undefined || thrown !== undefined) actual.thrown = thrown ?? null;
  if (one.options.gzip) actual.gzipMagic = bytes[0] === 0x1f && bytes[1] === 0x8b;
  return difference({ ...one.expect, ...(one.options.gzip ? { gzipMagic: true } : {}) }, actual);
}

// ---- serve -------------------------------------------------------------------------------------

async function runServe(web: WebApi, one: ServeCase): Promise<string | undefined> {
  const source = pagedSource(one.source);
  const { now, ...rest } = one.options;
  const options = { ...rest, ...(now === undefined ? {} : { now: new Date(now) }) };
  let previous: Response | undefined;
  for (const [at, step] of one.steps.entries()) {
    const request = requestOf(step, previous);
    const response = await web.serveSitemaps(request, source, options);
    const mismatch = await checkResponse(web, step, response);
    if (mismatch !== undefined) return `step ${at + 1} (${step.method ?? 'GET'} ${step.path}): ${mismatch}`;
    previous = response;
  }
  return undefined;
}

function requestOf(step: ServeStep, previous: Response | undefined): Request {
  const headers = new Headers();
  const echo = (value: string, header: string): string => {
    if (value !== '$previous') return value;
    const echoed = previous?.headers.get(header);
    if (echoed == null) throw new Error(`the previous answer has no ${header} to send back`);
    return echoed;
  };
  if (step.ifNoneMatch !== undefined) headers.set('if-none-match', echo(step.ifNoneMatch, 'etag'));
  if (step.ifModifiedSince !== undefined) headers.set('if-modified-since', echo(step.ifModifiedSince, 'last-modified'));
  return new Request(`https://shop.example.com${step.path}`, { method: step.method ?? 'GET', headers });
}

async function checkResponse(web: WebApi, step: ServeStep, response: Response): Promise<string | undefined> {
  const { expect } = step;
  const actual: Record<string, unknown> = { status: response.status };
  if (expect.headers !== undefined) {
    actual.headers = Object.fromEntries(Object.keys(expect.headers).map((name) => [name, response.headers.get(name)]));
  }
  if (expect.weakEtag !== undefined) actual.weakEtag = /^W\/"[^"]+"$/.test(response.headers.get('etag') ?? '');
  if (expect.body === null) actual.body = response.body === null ? null : await response.text();
  else if (expect.body !== undefined) {
    const parsed = web.parseSitemap(response);
    const locs: string[] = [];
    const lastmods: string[] = [];
    for await (const entry of parsed) {
      locs.push(entry.loc);
      if (entry.lastmod !== undefined) lastmods.push(entry.lastmod);
    }
    actual.body = {
      kind: parsed.kind ?? null,
      gzip: parsed.stats.gzip,
      count: locs.length,
      first: locs[0] ?? null,
      last: locs.at(-1) ?? null,
      ...(expect.body.lastmods === undefined ? {} : { lastmods: lastmods.slice(0, expect.body.lastmods.length) }),
      diagnostics: parsed.diagnostics.map(codeOf),
    };
  } else if (expect.text !== undefined) {
    actual.text = (await response.text()).includes(expect.text) ? expect.text : await response.clone().text();
  }
  return difference(expect, actual);
}

/** The synthetic set of a serve case: URL i is `/p/i`, dated by its number, read a page at a time. */
function pagedSource(spec: ServeCase['source']): Web.PagedSource {
  const entry = (i: number) => ({
    loc: `https://shop.example.com/p/${i}`,
    lastmod: `2024-${pad(1 + (i % 12))}-${pad(1 + (i % 28))}`,
  });
  const source: Web.PagedSource = {
    count: () => spec.count,
    *page(index, size) {
      const end = Math.min(spec.count, (index + 1) * size);
      for (let i = index * size; i < end; i++) yield entry(i);
    },
  };
  if (spec.lastmodHook) {
    source.lastmod = (index, size) => {
      let newest = '';
      const end = Math.min(spec.count, (index + 1) * size);
      for (let i = index * size; i < end; i++) if (entry(i).lastmod > newest) newest = entry(i).lastmod;
      return newest;
    };
  }
  return source;
}

const pad = (n: number) => String(n).padStart(2, '0');

// ---- sources -----------------------------------------------------------------------------------

/** A source of the data's description: a string, bytes, an ArrayBuffer, a chunked stream, a Response. */
async function sourceOf(spec: SourceSpec): Promise<Web.WebSitemapSource> {
  let bytes = spec.base64 !== undefined ? fromBase64(spec.base64) : new TextEncoder().encode(spec.text ?? '');
  if (spec.gzip) bytes = await gzip(bytes);
  switch (spec.as ?? 'string') {
    case 'string':
      return spec.text!;
    case 'bytes':
      return bytes;
    case 'arraybuffer':
      return bytes.slice().buffer;
    case 'stream':
      return chunkedStream(bytes, spec.chunkSize ?? 1024);
    case 'response':
      return new Response(chunkedStream(bytes, spec.chunkSize ?? 1024), { status: spec.status ?? 200 });
  }
}

function chunkedStream(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  return readAll(new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip')));
}

async function gunzipText(bytes: Uint8Array): Promise<string> {
  return new TextDecoder().decode(
    await readAll(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))),
  );
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function* generated(spec: NonNullable<WriteCase['generate']>): Generator<Web.UrlInput> {
  for (let i = 0; i < spec.count; i++) yield { loc: `https://www.example.com/item/${i}` };
}

/** The items one by one, each after a turn of the event loop's microtasks, as a database driver hands rows over. */
async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  for (const item of items) {
    await Promise.resolve();
    yield item;
  }
}

/** One turn of the event loop: whatever the stream does by itself meanwhile is done. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

// ---- comparison --------------------------------------------------------------------------------

/** A diagnostic as the cases write it: `CODE@line:column`, or `CODE` when it has no place. */
function codeOf(diagnostic: Web.Diagnostic): string {
  return diagnostic.line === undefined ? diagnostic.code : `${diagnostic.code}@${diagnostic.line}:${diagnostic.column}`;
}

const locsOf = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]!);

/** Undefined when equal, else the first place they differ. */
function difference(expected: unknown, actual: unknown, path = ''): string | undefined {
  if (Object.is(expected, actual)) return undefined;
  if (typeof expected !== 'object' || typeof actual !== 'object' || expected === null || actual === null) {
    return `${path || 'value'}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
  }
  if (Array.isArray(expected) !== Array.isArray(actual)) return `${path}: expected ${JSON.stringify(expected)}`;
  const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  for (const key of keys) {
    const found = difference(
      (expected as Record<string, unknown>)[key],
      (actual as Record<string, unknown>)[key],
      `${path}${Array.isArray(expected) ? `[${key}]` : `.${key}`}`,
    );
    if (found !== undefined) return found;
  }
  return undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
