import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSimulator, seedDemoSchool, type Simulator, type SimulatorOptions } from '../../../src/testing/index.js';

/** The simulator over loopback HTTP, keeping the headers of every request it got. */
export interface RecordingServer {
  url: string;
  simulator: Simulator;
  /** Each request's headers, as node:http read them (names lower-cased; a repeated header joined). */
  readonly headers: IncomingHttpHeaders[];
  /** Each request's raw header lines (to see a header sent twice). */
  readonly rawHeaders: string[][];
  close(): Promise<void>;
}

/** Starts the demo school's simulator on a free loopback port, recording headers. */
export async function startRecordingServer(options: SimulatorOptions = {}): Promise<RecordingServer> {
  const simulator = createSimulator(options);
  seedDemoSchool(simulator);
  const headers: IncomingHttpHeaders[] = [];
  const rawHeaders: string[][] = [];
  const server = createServer({ keepAlive: true }, (request, response) => {
    headers.push(request.headers);
    rawHeaders.push(request.rawHeaders);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void simulator
        .handle({ method: request.method ?? 'GET', path: request.url ?? '/', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') })
        .then((answer) => {
          response.writeHead(answer.status, answer.headers);
          response.end(answer.body);
        }, (error: unknown) => {
          console.error('recording server: the simulator failed', error);
          response.destroy();
        });
    });
  });
  // Idle connections stay open for the whole file: a long in-process job starves the timers, and a
  // socket the server closes just as the client reuses it would reset the next request.
  server.keepAliveTimeout = 600_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    simulator,
    headers,
    rawHeaders,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
