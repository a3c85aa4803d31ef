import { writeSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { JournalClosedError } from './errors/journal-closed-error.js';
import { JournalIoError } from './errors/journal-io-error.js';
import { ioErrorCode } from './io-error-code.js';


/**
 * Appends whole lines to a file opened with `'a'` (O_APPEND), one `write` call per line, one line at
 * a time: a crash between calls leaves only whole lines, and a crash during a call leaves at most a
 * torn LAST line. After a failed or short write it refuses every further line, so a partial line
 * can never end up in the middle of the file.
 */
export class LineAppender {
  readonly #handle: FileHandle;
  readonly #path: string;
  #queue: Promise<unknown> = Promise.resolve();
  #state: 'open' | 'closing' | 'failed' = 'open';
  #closed: Promise<void> | undefined;

  constructor(handle: FileHandle, path: string) {
    this.#handle = handle;
    this.#path = path;
  }

  /** Writes one line (which must end with a newline) after the lines already queued. */
  append(line: string, operation: string): Promise<void> {
    if (this.#state !== 'open') return Promise.reject(new JournalClosedError(this.#path, this.#state === 'closing' ? 'closed' : 'failed'));
    const written = this.#queue.then(() => this.#write(Buffer.from(line, 'utf8'), operation));
    this.#queue = written.catch(() => undefined);
    return written;
  }

  /**
   * Writes one line now, synchronously: one `write(2)` on the same O_APPEND descriptor, so it lands
   * whole, beside the queued lines (each of those lands whole too; the order between the two kinds
   * is the order the system ran the writes). For a record that must be in the file before what it
   * records happens: a request's `sent` line before the request leaves, so that a kill a moment
   * later cannot lose it (the file system has it; only a machine crash could). A queued line could
   * wait behind dozens of others while its request was already on the wire.
   *
   * @throws {JournalClosedError} after `close()` or a failed write; {@link JournalIoError} when this one fails.
   */
  appendNow(line: string, operation: string): void {
    if (this.#state !== 'open') throw new JournalClosedError(this.#path, this.#state === 'closing' ? 'closed' : 'failed');
    const bytes = Buffer.from(line, 'utf8');
    let bytesWritten: number;
    try {
      bytesWritten = writeSync(this.#handle.fd, bytes);
    } catch (cause) {
      this.#state = 'failed';
      throw new JournalIoError({ path: this.#path, code: ioErrorCode(cause), operation, cause });
    }
    if (bytesWritten !== bytes.length) {
      this.#state = 'failed';
      throw new JournalIoError({ path: this.#path, code: 'short_write', operation });
    }
  }

  async #write(bytes: Buffer, operation: string): Promise<void> {
    if (this.#state === 'failed') throw new JournalClosedError(this.#path, 'failed');
    let bytesWritten: number;
    try {
      ({ bytesWritten } = await this.#handle.write(bytes));
    } catch (cause) {
      this.#state = 'failed';
      throw new JournalIoError({ path: this.#path, code: ioErrorCode(cause), operation, cause });
    }
    if (bytesWritten !== bytes.length) {
      this.#state = 'failed';
      throw new JournalIoError({ path: this.#path, code: 'short_write', operation });
    }
  }

  /** Waits for queued lines, then closes the file. Later appends are refused; calling it again is harmless. */
  close(): Promise<void> {
    if (this.#closed === undefined) {
      this.#state = 'closing';
      this.#closed = this.#queue
        .then(() => this.#handle.close())
        .catch((cause: unknown) => {
          throw new JournalIoError({ path: this.#path, code: ioErrorCode(cause), operation: 'journal.close', cause });
        });
    }
    return this.#closed;
  }
}
