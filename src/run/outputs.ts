/**
 * The writers of a done run's outputs, by the run's kind: what `run finish` calls, whichever
 * command started the run, so that no command module imports another.
 */
import type { RunRecord, WorkQueue } from '../store/run-store.js';
import { auditJob } from './audit-checks.js';
import { writeAuditOutputs, type AuditOutputsWritten } from './audit-outputs.js';
import { crawlJob } from './crawl-pages.js';
import { writeCrawlOutputs, type OutputStreams, type OutputsWritten } from './crawl-outputs.js';

/**
 * Writes the outputs of a done run of its kind, from the queue, to the places its creator stored;
 * `budget`, when the kind has one, is how many problems at or above which severity it tolerates.
 */
export type OutputWriter = (
  store: WorkQueue,
  run: RunRecord,
  streams: OutputStreams & { isTerminal?: boolean },
  timing: { durationMs: number },
) => Promise<OutputsWritten & { budget?: AuditOutputsWritten['budget'] }>;

const WRITERS: ReadonlyMap<string, OutputWriter> = new Map<string, OutputWriter>([
  [crawlJob.kind, writeCrawlOutputs],
  [auditJob.kind, writeAuditOutputs],
]);

/** The writer of a run of `kind`'s outputs, if the kind has one here. */
export function outputWriter(kind: string): OutputWriter | undefined {
  return WRITERS.get(kind);
}
