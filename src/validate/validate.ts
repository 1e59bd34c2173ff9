/**
 * The validator: each source is parsed once, its entries stream through the rule modules as the
 * parser yields them, and cross-file rules run when every source has been read. Memory grows
 * with the URL set and the hreflang clusters the cross-file rules must remember, never with the
 * documents. How documents are read (the parser on its runtime, where an index's children are)
 * comes in as a DocumentAccess: index.ts gives Node's (files too), web.ts the web's.
 */
import { diagnostic, type Diagnostic } from '../core/diagnostics.js';
import type { Position } from '../core/position.js';
import { IndexWalk, nestingIndex } from '../core/index-walk.js';
import { LIMITS } from '../core/limits.js';
import { ParseError, type ParseOptions, type ParsedSitemap, type SitemapSource } from '../parse/types.js';
import { locatedEntryBatches } from '../parse/parser.js';
import type { ChildSource, ParentSource } from './children.js';
import { firstPossibleFutureDay } from '../core/rules/dates.js';
import { detach } from '../core/detach.js';
import { DocumentValidator, RunState } from './document.js';
import { fetchSitemap, TransferError, type SitemapBody } from '../http/sitemap-fetch.js';
import { looksAbsoluteHttp } from '../core/url.js';
import { DEFAULT_MAX_DIAGNOSTICS, DiagnosticHold, ResultBuilder } from './result.js';
import { quote, Reporter } from './reporter.js';
import { scopeFor } from './scope.js';
import type { ValidateOptions, ValidationResult } from './types.js';

/** A path, an http(s) URL, or a named stream or buffer (e.g. stdin as "-"). */
export type ValidationSource = string | { name: string; input: SitemapSource };

/** How the validator reads documents on its runtime. */
export interface DocumentAccess {
  /** The parser, bound to the runtime's edge. */
  parse(source: SitemapSource, options: ParseOptions): ParsedSitemap;
  /** Where a child of an index is read from (a file beside a local index, or its URL). */
  resolveChild(childUrl: string, parent: ParentSource): ChildSource | { missing: string };
}

/** A document waiting in the run's queue. */
interface Pending {
  name: string;
  input: SitemapSource | string;
  /** The document's URL, for scope rules and relative locs. */
  location?: string | undefined;
  /** Set for children of an index: where the index listed them. */
  parent?: { reporter: Reporter; position: Position; url: string };
  /** The URLs of the indexes above this document, the source given first (none for a source given). */
  ancestors: string[];
  /** Set when a child could not be found: why, instead of reading it. */
  missing?: string;
}

/** Validates one document (a sitemap index's children are not read: use validateSources). */
export async function validateSitemap(
  access: DocumentAccess,
  source: ValidationSource,
  options: ValidateOptions = {},
): Promise<ValidationResult> {
  const [result] = await validateSources(access, [source], { ...options, recursive: false });
  return result!;
}

/** Validates several documents as one set (and, with `recursive`, the children of indexes). */
export async function validateSources(
  access: DocumentAccess,
  sources: readonly ValidationSource[],
  options: ValidateOptions = {},
): Promise<ValidationResult[]> {
  const run = new RunState();
  const hold = new DiagnosticHold();
  const now = options.now?.getTime() ?? Date.now();
  const builders: ResultBuilder[] = [];
  const reporters: Reporter[] = [];
  // Each document by its URL (its path when it has none) → its name; index levels as `tree` follows them by default.
  const walk = new IndexWalk<string>();
  const queue: Pending[] = sources.map((source) =>
    typeof source === 'string'
      ? {
          name: source,
          input: source,
          location: options.location ?? (looksAbsoluteHttp(source) ? source : undefined),
          ancestors: [],
        }
      : { name: source.name, input: source.input, location: options.location, ancestors: [] },
  );

  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const pending = next;
    const identity = pending.location ?? pending.name;
    if (pending.parent && walk.metAt(identity) !== undefined) {
      pending.parent.reporter.at(
        'IDX-005',
        `the child sitemap ${quote(pending.parent.url)} was already validated in this run (a loop or a repeat); list each sitemap in one index only`,
        pending.parent.position,
        pending.parent.url,
      );
      continue;
    }
    walk.meet(identity, pending.name);
    const builder = new ResultBuilder(
      pending.name,
      options.maxDiagnostics ?? DEFAULT_MAX_DIAGNOSTICS,
      options.onDiagnostic,
      options.maxPerRule,
      hold,
    );
    const reporter = new Reporter(pending.name, builder.add);
    const sourceIndex = builders.push(builder) - 1;
    reporters.push(reporter);
    options.onDocument?.(pending.name, sourceIndex + 1);
    const children = await validateDocument(pending, { access, builder, reporter, run, sourceIndex, now, options });
    const nesting = nestingIndex(builder.kind, pending.parent);
    if (nesting) {
      nesting.reporter.at(
        'IDX-002',
        `the child sitemap ${quote(nesting.url)} is itself a sitemap index; indexes cannot be nested: list its children in this index instead`,
        nesting.position,
        nesting.url,
      );
    }
    // A nested index is reported, and its children are validated all the same, down to the depth limit.
    const [first] = children;
    if (first === undefined) continue;
    if (walk.followsChildrenAt(pending.ancestors.length)) {
      for (const child of children) queue.push(childPending(access, child, pending, reporter));
    } else {
      reporter.at(
        'LIMIT-003',
        `this index is ${walk.maxDepth} levels below the source given; its children are not validated`,
        first.position,
        first.url,
      );
    }
  }
  run.hreflang.finish(
    (index) => reporters[index]!,
    (url) => run.urls.has(url),
  );
  return builders.map((builder) => builder.result());
}

interface DocumentRun {
  access: DocumentAccess;
  builder: ResultBuilder;
  reporter: Reporter;
  run: RunState;
  sourceIndex: number;
  now: number;
  options: ValidateOptions;
}

interface ChildRef {
  url: string;
  position: Position;
}

/** Reads one document through the parser and the rules; returns the children it lists. */
async function validateDocument(pending: Pending, context: DocumentRun): Promise<ChildRef[]> {
  const { builder, reporter, options } = context;
  const children: ChildRef[] = [];
  if (pending.missing !== undefined) {
    builder.add(diagnostic('FETCH-001', pending.missing, { source: pending.name }));
    return children;
  }
  let input = pending.input;
  let location = pending.location;
  let fetched: SitemapBody | undefined;
  let scopeLocation = location;
  if (typeof input === 'string' && looksAbsoluteHttp(input)) {
    if (!options.http)
      throw new Error(
        `${input}: a URL source needs options.http (the public validateSources gives it the shared HttpClient)`,
      );
    const declared = crossSubmissionProof(pending, options);
    // robots.txt first: read meanwhile, a body that breaks off would lose what it had sent.
    await declared?.(input);
    const answer = await fetchSitemap(options.http, input, {
      signal: options.signal,
      maxBytes: options.parseLimits?.maxBytes,
    });
    answer.diagnostics.forEach(builder.add);
    if (!answer.ok) return children;
    fetched = answer;
    input = answer.body;
    location = options.location && !pending.parent ? options.location : answer.finalUrl;
    const proven = declared !== undefined && (await crossSubmitted(pending, location, declared));
    scopeLocation = proven ? `${new URL(location).origin}/` : location;
  }
  const validator = new DocumentValidator(
    {
      location,
      scope: scopeFor(scopeLocation, options.strictScope ?? false),
      sourceIndex: context.sourceIndex,
      now: context.now,
      safeDay: firstPossibleFutureDay(context.now),
    },
    context.run,
    reporter,
  );
  const parserCodes = new Set<string>();
  const parsed = context.access.parse(input, {
    source: pending.name,
    ...(location === undefined ? {} : { baseUrl: location }),
    ...(options.parseLimits ? { limits: options.parseLimits } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    onDiagnostic: (d) => {
      parserCodes.add(d.code);
      builder.add(parsed.kind === 'sitemapindex' ? asIndexDiagnostic(d) : d);
    },
  });
  try {
    // A batch a chunk: an await per entry cost a sixth of the parse.
    for await (const batch of locatedEntryBatches(parsed))
      for (const located of batch) {
        const follow = validator.entry(located);
        // An index lists at most 50,000 children (IDX-001 past that): more are not read, which
        // also bounds the queue an endless index could fill.
        if (follow && options.recursive && children.length < LIMITS.maxSitemapsPerIndex) {
          const { line, column } = located.location.fields.loc ?? located.location;
          children.push({ url: detach(located.entry.loc), position: { line, column } });
        }
      }
  } catch (error) {
    if (error instanceof ParseError || error instanceof TransferError) builder.add(error.diagnostic);
    else if (isSystemError(error))
      builder.add(
        diagnostic('FETCH-001', `${pending.name} could not be read (${error.message}); check the path`, {
          source: pending.name,
        }),
      );
    else throw error;
  } finally {
    fetched?.release();
  }
  fetched?.finish((code) => parserCodes.has(code)).forEach(builder.add);
  builder.kind = parsed.kind;
  validator.finish(parsed.kind, builder.errors > 0);
  builder.urls = validator.urls;
  builder.sitemaps = validator.sitemaps;
  return children;
}

/**
 * The cross-submission proof (docs/rules.md, URL-005): a sitemap that its origin's robots.txt declares,
 * or that an index declared there lists, may list any URL of that origin, not only those below
 * its own folder. Sought for fetched documents, unless --strict-scope rules cross-submission out
 * or --location says the document is published elsewhere than where it was fetched.
 */
function crossSubmissionProof(pending: Pending, options: ValidateOptions): ValidateOptions['robotsSitemaps'] {
  if (options.strictScope || (options.location && !pending.parent)) return undefined;
  return options.robotsSitemaps;
}

async function crossSubmitted(
  pending: Pending,
  location: string,
  declaredBy: NonNullable<ValidateOptions['robotsSitemaps']>,
): Promise<boolean> {
  const declared = new Set(await declaredBy(location));
  return [location, pending.location, ...pending.ancestors].some((url) => url !== undefined && declared.has(url));
}

function childPending(access: DocumentAccess, child: ChildRef, parent: Pending, reporter: Reporter): Pending {
  const parentInfo = { reporter, position: child.position, url: child.url };
  const ancestors = [...parent.ancestors, parent.location ?? parent.name];
  const parentPath = typeof parent.input === 'string' && !looksAbsoluteHttp(parent.input) ? parent.input : undefined;
  const resolved = access.resolveChild(child.url, { path: parentPath, location: parent.location });
  if ('missing' in resolved)
    return {
      name: child.url,
      input: child.url,
      location: child.url,
      parent: parentInfo,
      ancestors,
      missing: resolved.missing,
    };
  return { name: resolved.input, input: resolved.input, location: resolved.location, parent: parentInfo, ancestors };
}

/**
 * The parser says URL-001 for any relative or non-http loc; in an index the catalog has its own
 * code for it (IDX-003, Search Console's "Invalid URL in sitemap index file").
 */
function asIndexDiagnostic(d: Diagnostic): Diagnostic {
  return d.code === 'URL-001' ? { ...d, code: 'IDX-003', message: `child sitemap: ${d.message}` } : d;
}

function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
}
