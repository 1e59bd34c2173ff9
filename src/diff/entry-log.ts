/**
 * The entries of one set, as JSON, appended to a temporary file in the order they come, each found
 * again by its place (offset, length). The sort of the set (fingerprint-runs.ts) moves only small
 * fixed records that point here; an entry is read back only when it makes a row of the diff.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/** Bytes gathered before they are written: a few large writes rather than many small ones. */
const WRITE_BUFFER_BYTES = 1024 * 1024;

/**
 * Buffer's own UTF-8 writer, without the argument checks of write(): 5–8× faster on short strings
 * (measured on entries' JSON), a cost paid once per entry. Present in every Node since 0.x.
 */
type Utf8Writable = Buffer & { utf8Write(text: string, offset: number): number };

export class EntryLog {
  private file: FileHandle | undefined;
  private buffer: Buffer = Buffer.allocUnsafe(WRITE_BUFFER_BYTES);
  private filled = 0;
  /** Bytes appended in all: the offset of the next entry. */
  private size = 0;
  private reader: number | undefined;

  private constructor(private readonly path: string) {}

  static async create(path: string): Promise<EntryLog> {
    const log = new EntryLog(path);
    log.file = await open(path, 'w');
    return log;
  }

  /** Where the next append goes. */
  get offset(): number {
    return this.size;
  }

  /**
   * Appends `text` and returns its length in bytes, with a promise to await before the next append
   * when the buffer had to be written out to make room.
   */
  append(text: string): { length: number; flushed?: Promise<void> | undefined } {
    // A UTF-16 unit takes at most 3 bytes of UTF-8.
    const flushed = this.buffer.length - this.filled < text.length * 3 ? this.flush(text.length * 3) : undefined;
    const length = (this.buffer as Utf8Writable).utf8Write(text, this.filled);
    this.filled += length;
    this.size += length;
    return { length, flushed };
  }

  /** Writes what is buffered; reads may follow. */
  async end(): Promise<void> {
    await this.flush(0);
    await this.file?.close();
    this.file = undefined;
    this.reader = openSync(this.path, 'r');
  }

  /**
   * The text at `offset`, `length` bytes long. Read synchronously: rows are few, each a small read
   * of a file the system has just written (in its cache), and an await per row cost more than the
   * read itself.
   */
  read(offset: number, length: number): string {
    if (this.reader === undefined) throw new Error('the entry log is read after end()');
    const bytes = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) done += readSync(this.reader, bytes, done, length - done, offset + done);
    return bytes.toString('utf8');
  }

  close(): void {
    if (this.reader !== undefined) closeSync(this.reader);
    this.reader = undefined;
    void this.file?.close();
    this.file = undefined;
  }

  /** Hands the buffered bytes to the file and starts a fresh buffer of at least `room` bytes (at once, before the write ends). */
  private async flush(room: number): Promise<void> {
    const full = this.buffer.subarray(0, this.filled);
    this.buffer = Buffer.allocUnsafe(Math.max(WRITE_BUFFER_BYTES, room));
    this.filled = 0;
    if (full.length > 0) await this.file!.write(full);
  }
}
