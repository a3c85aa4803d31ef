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
