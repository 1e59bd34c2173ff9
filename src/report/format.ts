/** Numbers as the reports print them: thousands separators, counted nouns, binary byte units. */
import type { Severity } from '../core/diagnostics.js';

/**
 * 12345 → "12,345" (the same in every locale, so output is stable across machines). Integers are
 * grouped by hand: the first toLocaleString of a process loads ICU's number formats, 27 ms of
 * CPU that a command's start (its --help text) paid.
 */
export function formatNumber(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  return n.toString().replace(/\B(?=(?:\d{3})+$)/g, ',');
}

/** 1 → "1 URL", 2 → "2 URLs"; irregular plurals are passed in ("entry", "entries"). */
export function countOf(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatNumber(n)} ${n === 1 ? singular : pluralForm}`;
}

/** 1536 → "1.5 KiB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** "… 119,979 more URL-005 errors not shown (--max-per-rule 0 shows all)", as every command says it. */
export function formatFolded({ code, severity, count }: { code: string; severity: Severity; count: number }): string {
  return `… ${formatNumber(count)} more ${code} ${count === 1 ? severity : `${severity}s`} not shown (--max-per-rule 0 shows all)`;
}
