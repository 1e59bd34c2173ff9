/**
 * Which URL-list format a source is in: by file extension when it has a known one, otherwise
 * by its first meaningful line (a JSON object → jsonl; a header row naming a `loc` column →
 * csv; anything else → txt).
 */
import { extname } from 'node:path';
import type { UrlListFormat } from './types.js';

const BY_EXTENSION: Record<string, UrlListFormat> = {
  '.txt': 'txt',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.csv': 'csv',
};

export function formatFromPath(path: string): UrlListFormat | undefined {
  return BY_EXTENSION[extname(path).toLowerCase()];
}

export function formatFromContent(head: string): UrlListFormat {
  const firstLine = head
    .replace(/^\ufeff/, '')
    .split(/\r?\n/)
    .find((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
  if (firstLine === undefined) return 'txt';
  if (firstLine.trimStart().startsWith('{')) return 'jsonl';
  const cells = firstLine.split(',').map((cell) =>
    cell
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase(),
  );
  if (cells.includes('loc') || cells.includes('url')) return 'csv';
  return 'txt';
}
