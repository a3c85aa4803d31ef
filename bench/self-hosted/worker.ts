/**
 * One run of the self-hosted-budget bench, in a fresh process (the process's default store and
 * anything learnt start empty): an AdminClient with DEFAULT options (it believes the spec's 200
 * mutations per 60 s) runs grantCouponToMany of `grants` members against the server at `url`,
 * stopped after `capMs` if it has not ended. Prints one SelfHostedRun as JSON. With
 * `interactiveReserve`, that one option is passed too (`limits.interactiveReserve`). The process
 * warms its code up first on another key of the school (`warmKey`, whose budget is its own).
 * Usage: node --import tsx bench/self-hosted/worker.ts <url> <warmKey> <meetingId> <grants> <capMs> [interactiveReserve]
 */
import { AdminClient } from '../../src/index.js';
import { API_KEY, COUPON_ID, memberEmail } from '../pacing/setup.js';
import { warmUp } from '../qos/traffic.js';
import type { SelfHostedRun } from './run.js';

const [url, warmKey, meetingId, grants, capMs, reserve] = process.argv.slice(2);
if (url === undefined || warmKey === undefined || meetingId === undefined || grants === undefined || capMs === undefined) {
  throw new Error('usage: worker.ts <url> <warmKey> <meetingId> <grants> <capMs> [interactiveReserve]');
}
await warmUp(url, warmKey, meetingId);

const admin = new AdminClient({ apiKey: API_KEY, baseUrl: url, ...(reserve === undefined ? {} : { limits: { interactiveReserve: Number(reserve) } }) });
const run: SelfHostedRun = { startedAt: Date.now(), finishedAt: 0, sends: [], rateLimited: [], waiting: [], roundTripMs: [], done: 0, failed: 0, failures: {}, interrupted: false };
const attempt = (event: { callId: string; attempt: number }): string => `${event.callId}#${event.attempt}`;
admin.on('request', (event) => {
  if (event.operationType === 'mutations') run.sends.push({ at: Date.now(), attempt: attempt(event) });
});
admin.on('response', (event) => {
  if (event.operationType === 'mutations') run.roundTripMs.push(event.durationMs);
});
admin.on('rateLimited', (event) => {
  run.rateLimited.push({ at: Date.now(), attempt: attempt(event), limit: event.limit, waitMs: event.waitMs });
});
admin.on('waiting', (event) => {
  run.waiting.push({ at: Date.now(), reason: event.reason, expectedMs: event.expectedMs });
});

const members = Array.from({ length: Number(grants) }, (_, index) => ({ email: memberEmail(index) }));
run.startedAt = Date.now();
const summary = await admin.grantCouponToMany(COUPON_ID, members, {
  signal: AbortSignal.timeout(Number(capMs)),
  onOutcome: (outcome) => {
    if (outcome.outcome === 'failed') run.failures[outcome.error.name] = (run.failures[outcome.error.name] ?? 0) + 1;
  },
});
run.finishedAt = Date.now();
run.done = summary.counts.created + summary.counts.already_granted;
run.failed = summary.counts.failed;
run.interrupted = summary.interrupted;
process.stdout.write(`${JSON.stringify(run)}\n`);
