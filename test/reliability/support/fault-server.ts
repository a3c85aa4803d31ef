import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { responseHead, takeRequest, type RawHeaders, type RawRequest } from './raw-http.js';

/** How the body of a response is delimited on the wire. */
export type Framing = 'content-length' | 'chunked' | 'close';

/**
 * What the fault server does with one request.
 * - `reset-before-read`: TCP reset as soon as the request's first bytes arrive, unread.
 * - `reset-after-read`: read the whole request (it counts as arrived), then TCP reset.
 * - `hang`: read the whole request and never answer.
 * - `respond`: a complete response (`framing` defaults to Content-Length).
 * - `truncate`: headers (framing for the whole `body`), then only `keepBytes` of it; then the
 *   connection is closed (`end`: with `close` framing the body just looks short, otherwise it
 *   stops mid-body) or left open with nothing more sent (`stall`).
 * - `large`: `totalBytes` of body streamed as fast as the client reads it.
 */
export type FaultAction =
  | { kind: 'reset-before-read' }
  | { kind: 'reset-after-read' }
  | { kind: 'hang' }
  | { kind: 'respond'; status: number; headers?: RawHeaders; body: string; framing?: Framing }
  | { kind: 'truncate'; status: number; headers?: RawHeaders; body: string; keepBytes: number; framing: Framing; ending: 'end' | 'stall' }
  | { kind: 'large'; totalBytes: number; framing: 'content-length' | 'chunked' };

/** A scripted step: an action, or a function of the request read (it cannot choose `reset-before-read`). */
export type FaultStep = FaultAction | ((request: RawRequest) => FaultAction);

/** One request the server saw and what it did with it. */
export interface FaultLogEntry {
  /** Undefined for a request reset before it was read. */
  request: RawRequest | undefined;
  action: FaultAction['kind'];
  /** The status sent, when headers were sent. */
  status?: number;
}

/** A loopback HTTP/1.1 server on a raw socket whose behaviour per request is scripted by the test. */
export interface FaultServer {
  /** `baseUrl` for AdminClient, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  /** Scripts the next requests; the last step repeats. */
  script(...steps: FaultStep[]): void;
  /** Every request that reached the server's socket, in order (read or not). */
  readonly log: readonly FaultLogEntry[];
  /** Requests read in full whose document names `field` (a reset-before-read one is not counted). */
  arrivals(field: string): number;
  /** Requests of `field` answered with a 2xx status (the server "executed" them). */
  succeeded(field: string): number;
  /** Body bytes written by `large` responses before the client went away. */
  readonly largeBodyBytesWritten: number;
  /** Forgets the log and the script. */
  reset(): void;
  close(): Promise<void>;
}

const CHUNK = 64 * 1024;

/** Starts a {@link FaultServer} on 127.0.0.1 with a free port. Every response closes its connection. */
export async function startFaultServer(): Promise<FaultServer> {
  let steps: FaultStep[] = [];
  const log: FaultLogEntry[] = [];
  const sockets = new Set<Socket>();
  let largeBytes = 0;

  const nextStep = (): FaultStep => {
    const step = steps.length > 1 ? steps.shift() : steps[0];
    return step ?? { kind: 'respond', status: 500, body: 'fault server: no step scripted' };
  };

  const serve = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined); // resets and client aborts are the point of this server
    let buffer = Buffer.alloc(0);
    let pending: FaultStep | undefined;
    socket.on('data', (data: Buffer) => {
      // A new request starts when bytes arrive on an idle connection: that is when its step is chosen.
      if (buffer.length === 0 && pending === undefined) {
        pending = nextStep();
        if (typeof pending !== 'function' && pending.kind === 'reset-before-read') {
          log.push({ request: undefined, action: 'reset-before-read' });
          socket.resetAndDestroy();
          return;
        }
      }
      buffer = Buffer.concat([buffer, data]);
      const taken = takeRequest(buffer);
      if (taken === undefined) return;
      buffer = Buffer.from(taken.rest);
      const step = pending ?? nextStep();
      pending = undefined;
      const action = typeof step === 'function' ? step(taken.request) : step;
      perform(socket, taken.request, action).catch(() => socket.destroy());
    });
  };

  const perform = async (socket: Socket, request: RawRequest, action: FaultAction): Promise<void> => {
    const entry: FaultLogEntry = { request, action: action.kind };
    log.push(entry);
    switch (action.kind) {
      case 'reset-before-read':
      case 'reset-after-read':
        socket.resetAndDestroy();
        return;
      case 'hang':
        return;
      case 'respond':
        entry.status = action.status;
        socket.end(Buffer.concat([head(action.status, action.headers, action.framing ?? 'content-length', Buffer.byteLength(action.body)), framed(action.body, action.framing ?? 'content-length', true)]));
        return;
      case 'truncate': {
        entry.status = action.status;
        const kept = Buffer.from(action.body).subarray(0, action.keepBytes);
        socket.write(head(action.status, action.headers, action.framing, Buffer.byteLength(action.body)));
        const partial = framed(kept.toString('latin1'), action.framing, false, 'latin1');
        if (action.ending === 'end') socket.end(partial);
        else socket.write(partial);
        return;
      }
      case 'large':
        entry.status = 200;
        await streamLarge(socket, action, (bytes) => (largeBytes += bytes));
    }
  };

  const server: Server = createServer(serve);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  const count = (field: string, predicate: (entry: FaultLogEntry) => boolean): number =>
    log.filter((entry) => entry.request?.fields.includes(field) === true && predicate(entry)).length;

  return {
    url: `http://127.0.0.1:${port}`,
    script: (...next) => {
      steps = next;
    },
    log,
    arrivals: (field) => count(field, () => true),
    succeeded: (field) => count(field, (entry) => entry.status !== undefined && entry.status >= 200 && entry.status < 300 && entry.action === 'respond'),
    get largeBodyBytesWritten() {
      return largeBytes;
    },
    reset: () => {
      steps = [];
      log.length = 0;
      largeBytes = 0;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

function head(status: number, headers: RawHeaders = {}, framing: Framing, length: number): Buffer {
  const all = { 'Content-Type': 'application/json', ...headers };
  if (framing === 'content-length') Object.assign(all, { 'Content-Length': String(length) });
  if (framing === 'chunked') Object.assign(all, { 'Transfer-Encoding': 'chunked' });
  return Buffer.from(responseHead(status, all), 'latin1');
}

function framed(body: string, framing: Framing, complete: boolean, encoding: BufferEncoding = 'utf8'): Buffer {
  const bytes = Buffer.from(body, encoding);
  if (framing !== 'chunked') return bytes;
  const chunk = bytes.length === 0 ? Buffer.alloc(0) : Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
  return complete ? Buffer.concat([chunk, Buffer.from('0\r\n\r\n')]) : chunk;
}

/** Streams a JSON-looking body of `totalBytes`, honouring backpressure, until done or the client leaves. */
async function streamLarge(socket: Socket, action: { totalBytes: number; framing: 'content-length' | 'chunked' }, wrote: (bytes: number) => void): Promise<void> {
  socket.write(head(200, {}, action.framing, action.totalBytes));
  const opening = Buffer.from('{"data":{"blob":"');
  let sent = 0;
  while (sent < action.totalBytes && !socket.destroyed) {
    const size = Math.min(CHUNK, action.totalBytes - sent);
    const data = sent === 0 ? Buffer.concat([opening, Buffer.alloc(size - opening.length, 'a')]) : Buffer.alloc(size, 'a');
    const flushed = socket.write(framed(data.toString('latin1'), action.framing, false, 'latin1'));
    sent += size;
    wrote(size);
    if (!flushed) await drainedOrClosed(socket);
  }
  if (!socket.destroyed) socket.end(action.framing === 'chunked' ? '0\r\n\r\n' : '');
}

async function drainedOrClosed(socket: Socket): Promise<void> {
  const controller = new AbortController();
  try {
    await Promise.race([once(socket, 'drain', { signal: controller.signal }), once(socket, 'close', { signal: controller.signal })]);
  } catch {
    // `once` rejects on 'error' (the client reset the connection): the stream stops either way.
  } finally {
    controller.abort(); // drops the listener that did not fire
  }
}
