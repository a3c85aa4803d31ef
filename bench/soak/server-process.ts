/**
 * The soak's server, in its own process: the simulator with the demo school and a scaled window
 * (`node --import tsx bench/soak/server-process.ts <limit> <windowMs>`) on loopback. Prints
 * `{"url": ...}` when listening; answers `stats` on stdin with one JSON line; exits on `close`.
 */
import { createInterface } from 'node:readline';
import { createSimulator, seedDemoSchool, startMockServer } from '../../src/testing/index.js';

const [limit, windowMs] = process.argv.slice(2).map(Number);
if (!Number.isInteger(limit) || !Number.isFinite(windowMs)) throw new Error('usage: server-process.ts <limit> <windowMs>');
const rule = { limit: limit as number, windowMs: windowMs as number };
const simulator = createSimulator({ limits: { mutations: rule, queries: rule } });
seedDemoSchool(simulator);
const server = await startMockServer({ simulator });
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'stats') process.stdout.write(`${JSON.stringify(simulator.stats())}\n`);
  if (line === 'close') break;
}
await server.close();
