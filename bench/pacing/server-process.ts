/**
 * The benchmark's server, in its own process (as a real server is): the simulator with the scaled
 * limits and heavy-tailed latency on loopback. Prints `{"url": ...}` when listening; answers
 * `stats` on stdin with the simulator's stats as one JSON line; exits on `close`.
 */
import { createInterface } from 'node:readline';
import { startBenchServer } from './setup.js';

const server = await startBenchServer();
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'stats') process.stdout.write(`${JSON.stringify(server.simulator.stats())}\n`);
  if (line === 'close') break;
}
await server.close();
