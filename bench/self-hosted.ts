/**
 * Self-hosted budgets (issue 20): a client with DEFAULT options (it believes the spec's 200
 * mutations per 60 s) runs grantCouponToMany against simulators that allow something else (strict
 * sliding window, every arrival counted, latency 5-80 ms each way, each in its own process). Per
 * server: total time against the minimum for that server's budget, the 429s of the first burst
 * (before any 429 could be known) and after it, and what the client shows it learnt through its
 * public events.
 *
 * Run: npm run bench:self-hosted [-- --servers 60/10,30/5,500/20] [--grants 240,300,330] [--interactive-reserve N] [--stated] [--cap 300] [--repeat N] [--json <file>]
 *   --grants: job sizes to run against each server instead of its own (a sweep: the time is a step
 *             function of the size, one more server window each time the size passes a multiple of
 *             the slots a window carries)
 *   --interactive-reserve: passes `limits.interactiveReserve: N` (the one option that is not the
 *             default), to measure what the slot kept free for interactive calls costs
 *   --stated: the servers state their budget on every answer (RateLimit-Policy, RateLimit,
 *             X-RateLimit-Limit and -Window), as a self-hosted server may; by default only with a
 *             429, as the spec says
 *   --cap: seconds after which a job is stopped (its `signal`) and reported as not done (default 300)
 */
import { parseArgs } from 'node:util';
import { writeRunJson } from './support/json-file.js';
import { currentLoad, formatLoad, runContext } from './support/run-context.js';
import { formatSelfHosted, SELF_HOSTED_LEGEND, selfHostedFigures } from './self-hosted/figures.js';
import { runSelfHosted, type SelfHostedServer } from './self-hosted/run.js';
import { readInteractiveReserve } from './support/interactive-reserve-flag.js';

/** The servers: each job spans several of its server's windows. */
const SERVERS: readonly SelfHostedServer[] = [
  { budget: { limit: 60, windowMs: 10_000 }, grants: 300 },
  { budget: { limit: 30, windowMs: 5_000 }, grants: 300 },
  { budget: { limit: 500, windowMs: 20_000 }, grants: 1_500 },
];

const { values } = parseArgs({
  options: {
    servers: { type: 'string' },
    grants: { type: 'string' },
    'interactive-reserve': { type: 'string' },
    stated: { type: 'boolean', default: false },
    cap: { type: 'string', default: '300' },
    repeat: { type: 'string', default: '1' },
    json: { type: 'string' },
  },
});
const name = (server: SelfHostedServer): string => `${server.budget.limit}/${server.budget.windowMs / 1000}`;
const wanted = values.servers?.split(',').map((item) => item.trim().replace(/s$/, ''));
const chosen = SERVERS.filter((server) => wanted === undefined || wanted.includes(name(server)));
if (chosen.length === 0) throw new Error(`Failed to read --servers: none of ${values.servers} is known. Known: ${SERVERS.map(name).join(', ')}.`);
const sizes = values.grants?.split(',').map((item) => Number(item.trim()));
if (sizes?.some((size) => !Number.isInteger(size) || size < 1) === true) throw new Error(`Failed to read --grants: ${values.grants} is not a list of positive whole numbers. Pass --grants 240,300,330.`);
const interactiveReserve = readInteractiveReserve(values['interactive-reserve']);
const sized = sizes === undefined ? chosen : chosen.flatMap((server) => sizes.map((grants) => ({ ...server, grants })));
const servers = sized.map((server) => ({ ...server, ...(interactiveReserve === undefined ? {} : { interactiveReserve }), ...(values.stated ? { stated: true } : {}) }));
const capMs = Number(values.cap) * 1000;

const context = runContext();
const began = Date.now();
console.log(`Self-hosted budgets: SDK ${context.sdk}, node ${context.node}, ${context.startedAt}, ${formatLoad(context.loadBefore)}`);
console.log(
  `Client: default options (200 mutations per 60 s assumed)${interactiveReserve === undefined ? '' : `, but limits.interactiveReserve ${interactiveReserve}`}; servers state their budget ${values.stated ? 'on every answer' : 'only with a 429 (the spec)'}; cap ${capMs / 1000} s per job; latency 5-80 ms each way; each client process warms up on another key first.\n`,
);
const rows = [];
for (let round = 0; round < Number(values.repeat); round += 1) {
  for (const server of servers) {
    const outcome = await runSelfHosted(server, capMs);
    const figures = selfHostedFigures(outcome);
    rows.push({ server, figures });
    console.log(formatSelfHosted(outcome, figures));
  }
}
console.log(`\n${SELF_HOSTED_LEGEND.join('\n')}`);
const wallMs = Date.now() - began;
console.log(`\nWall time ${(wallMs / 60_000).toFixed(1)} min; ${formatLoad()} at the end (${formatLoad(context.loadBefore)} at the start).`);
if (values.json !== undefined) {
  writeRunJson(values.json, { ...context, loadAfter: currentLoad(), wallMs, capMs }, 'rows', rows);
  console.log(`Every server written to ${values.json}.`);
}
