/**
 * Where the child sitemaps of an index are read from in a recursive run. An index fetched over
 * HTTP has its children fetched too. A local index has them looked up on disk: under the index's
 * folder by their path below the index's URL (`--location`), else by file name beside the index.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

export interface ChildSource {
  /** What the child is read from: a file path or a URL. */
  input: string;
  /** The child's URL as the index lists it: its location for the scope rules. */
  location: string;
}

export interface ParentSource {
  /** The index's file path, or undefined when it was fetched (or read from stdin). */
  path?: string | undefined;
  /** The index's URL, when known. */
  location?: string | undefined;
}

/** Where to read a child from, or a sentence saying where it was looked for in vain. */
export function resolveChild(childUrl: string, parent: ParentSource): ChildSource | { missing: string } {
  if (parent.path === undefined) return { input: childUrl, location: childUrl };
  const folder = dirname(resolve(parent.path));
  const candidates: string[] = [];
  const below = parent.location === undefined ? undefined : pathBelow(childUrl, parent.location);
  if (below !== undefined) candidates.push(join(folder, below));
  const name = fileNameOf(childUrl);
  if (name !== undefined) candidates.push(join(folder, name));
  const found = candidates.find((candidate) => existsSync(candidate));
  if (found !== undefined) return { input: found, location: childUrl };
  return {
    missing:
      candidates.length === 0
        ? `${childUrl} has no file name to look for beside the index`
        : `${childUrl} was looked for at ${[...new Set(candidates)].join(' and ')}, and is not there; ${
            parent.location === undefined
              ? "pass --location with the index's URL to map children to files, or validate the index by its URL"
              : 'write the file there, or validate the index by its URL'
          }`,
  };
}

/** The child's path relative to the index's folder URL, when it lies below it. */
function pathBelow(childUrl: string, indexUrl: string): string | undefined {
  try {
    const child = new URL(childUrl);
    const index = new URL(indexUrl);
    const folder = index.pathname.slice(0, index.pathname.lastIndexOf('/') + 1);
    if (child.origin !== index.origin || !child.pathname.startsWith(folder)) return undefined;
    const relative = decodeURIComponent(child.pathname.slice(folder.length));
    return relative === '' || relative.split('/').includes('..') ? undefined : relative;
  } catch {
    return undefined;
  }
}

function fileNameOf(url: string): string | undefined {
  try {
    const name = basename(decodeURIComponent(new URL(url).pathname));
    return name === '' || name === '/' ? undefined : name;
  } catch {
    return undefined;
  }
}
