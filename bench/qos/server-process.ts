/**
 * The QoS benchmark's server in its own process: prints `{"url", "meetingId"}` when listening,
 * answers `stats` on stdin with the simulator's stats, exits on `close`.
 */
import { createInterface } from 'node:readline';
import { startQosServer } from './setup.js';

const { server, meetingId } = await startQosServer();
process.stdout.write(`${JSON.stringify({ url: server.url, meetingId })}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'stats') process.stdout.write(`${JSON.stringify(server.simulator.stats())}\n`);
  if (line === 'close') break;
}
await server.close();
