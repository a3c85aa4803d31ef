/**
 * The QoS benchmark's server in its own process: prints `{"url", "meetingId", "warmKey"}` when listening,
 * answers `stats` on stdin with the simulator's stats, exits on `close`.
 * Usage: node --import tsx bench/qos/server-process.ts [limit windowMs [on-429|every-answer]]   (default: 50 per 3,000 ms; the budget stated only with a 429)
 */
import { createInterface } from 'node:readline';
import { ISSUE_13_BUDGET, startQosServer } from './setup.js';

const [limit, windowMs] = process.argv.slice(2, 4).map(Number);
const budget = limit !== undefined && windowMs !== undefined ? { limit, windowMs } : ISSUE_13_BUDGET;
const { server, meetingId, warmKey } = await startQosServer(budget, process.argv[4] === 'every-answer' ? 'every-answer' : 'on-429');
process.stdout.write(`${JSON.stringify({ url: server.url, meetingId, warmKey })}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'stats') process.stdout.write(`${JSON.stringify(server.simulator.stats())}\n`);
  if (line === 'close') break;
}
await server.close();
