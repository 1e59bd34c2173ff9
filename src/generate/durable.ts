/**
 * What makes a publication survive a power cut, not only a kill -9: a file's bytes reach the disk
 * before the rename that publishes it (else the new name may point at zeros, or at nothing), and
 * the directory reaches it after the renames (else the renames themselves may be lost). This is
 * what git, SQLite and every careful writer do around an atomic rename.
 */
import { open } from 'node:fs/promises';

/** Flushes a file's bytes to the disk. */
export async function syncFile(path: string): Promise<void> {
  const file = await open(path, 'r+');
  try {
    await file.sync();
  } finally {
    await file.close();
  }
}

/**
 * Flushes a directory's entries (the renames into it) to the disk. Where a directory cannot be
 * opened as a file (Windows), the system keeps its entries itself, and there is nothing to do.
 */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EISDIR' || error.code === 'EPERM' || error.code === 'EACCES') return undefined;
    throw error;
  });
  if (handle === undefined) return;
  try {
    await handle.sync().catch((error: NodeJS.ErrnoException) => {
      // Some file systems do not sync directories; the rename is as durable as they make it.
      if (error.code !== 'EINVAL' && error.code !== 'ENOTSUP' && error.code !== 'EBADF') throw error;
    });
  } finally {
    await handle.close();
  }
}
