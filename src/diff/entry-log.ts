/**
 * The entries of one set, as text, appended to a temporary file in the order they come, each found
 * again by its place (offset, length). The sort of the set (set-on-disk.ts) moves only small
 * fixed records that point here; an entry is read back only when it makes a row of the diff.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/** Bytes gathered before they are written: a few large writes rather than many small ones. */
const WRITE_BUFFER_BYTES = 1024 * 1024;

/**
 * Buffer's own UTF-8 writer, without the argument checks of write(): 5–8× faster on short strings
 * (measured on entries as text), a cost paid once per entry. Present in every Node since 0.x.
 */
type Utf8Writable = Buffer & { utf8Write(text: string, offset: number): number };

export class EntryLog {
  private file: FileHandle | undefined;
  /**
   * Two buffers, one filled while the other is written, reused for the whole log: fresh memory
   * costs a page fault per 4 KiB, and on a virtual machine a megabyte of new pages per flush cost
   * more than writing it (a 10,000,000-URL set ran at a tenth of the speed).
   */
  private readonly buffers = [Buffer.allocUnsafe(WRITE_BUFFER_BYTES), Buffer.allocUnsafe(WRITE_BUFFER_BYTES)];
  private readonly writes: Promise<unknown>[] = [Promise.resolve(), Promise.resolve()];
  private current = 0;
  private buffer = this.buffers[0]!;
  private filled = 0;
  /** Bytes appended in all: the offset of the next entry. */
  private size = 0;
  /** Where the bytes of the current buffer go in the file. */
  private bufferAt = 0;
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

  /** Whether the buffer must be written out (makeRoom) before `text` can be appended. */
  needsRoom(text: string): boolean {
    // A UTF-16 unit takes at most 3 bytes of UTF-8.
    return this.buffer.length - this.filled < text.length * 3;
  }

  /** Writes the buffer out; resolves once `text` can be appended. */
  makeRoom(text: string): Promise<void> {
    return this.flush(text.length * 3);
  }

  /** Appends `text` (there must be room: needsRoom) and returns its length in bytes. */
  append(text: string): number {
    const length = (this.buffer as Utf8Writable).utf8Write(text, this.filled);
    this.filled += length;
    this.size += length;
    return length;
  }

  /** Writes what is buffered; reads may follow. */
  async end(): Promise<void> {
    await this.flush(0);
    await Promise.all(this.writes);
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

  /**
   * Starts writing the buffered bytes and switches to the other buffer (at once, before the write
   * ends); resolves once that buffer is free and has `room` bytes (a larger one for a huge entry).
   */
  private async flush(room: number): Promise<void> {
    // At its own position: two writes in flight may reach the file in either order.
    if (this.filled > 0) this.writes[this.current] = this.file!.write(this.buffer, 0, this.filled, this.bufferAt);
    this.bufferAt = this.size;
    this.current = 1 - this.current;
    const pending = this.writes[this.current];
    if (room > this.buffers[this.current]!.length) {
      // A single entry larger than a buffer: one of its own, after the writes before it.
      await Promise.all(this.writes);
      this.buffers[this.current] = Buffer.allocUnsafe(room);
    }
    this.buffer = this.buffers[this.current]!;
    this.filled = 0;
    await pending;
  }
}
