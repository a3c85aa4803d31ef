import { createServer } from 'node:net';

/**
 * A loopback port nothing listens on: taken free (port 0), then closed, so a connection to it is
 * refused (ECONNREFUSED) and surely never reaches a server.
 */
export async function refusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
