import type { CellPlan } from './cell.js';
import type { Budget } from './setup.js';

/**
 * Issue 20's three measured "before" cases, one client with default options, the first
 * interactive call exactly at its start (no random phase), one call at a time:
 * - `issue20-a`: 20 per 2 s, grantCouponToMany of 160, one call every 400 ms from 400 ms after the job;
 * - `issue20-b`: 200 per 6 s, 1,000 grants, one call every 500 ms from the job's start;
 * - `issue20-c`: 50 per 3 s and 500 grants as in issue 13's bench, the calls from 400 ms after the job.
 */
export const ISSUE_20_SCENARIOS: Readonly<Record<string, CellPlan>> = {
  'issue20-a': oneClientCase('issue20-a (160, every 400 ms from 400)', { limit: 20, windowMs: 2_000 }, 160, 400, 400),
  'issue20-b': oneClientCase('issue20-b (1000, every 500 ms from 0)', { limit: 200, windowMs: 6_000 }, 1_000, 500, 0),
  'issue20-c': oneClientCase('issue20-c (500, every 500 ms from 400)', { limit: 50, windowMs: 3_000 }, 500, 500, 400),
};

/** One client, `bulkGrants` grants, one interactive call every `everyMs` from `firstAfterMs` after the job's start. */
function oneClientCase(name: string, budget: Budget, bulkGrants: number, everyMs: number, firstAfterMs: number): CellPlan {
  return { name, budget, topology: 'one', bulkGrants, interactive: { burst: 1, periodMs: everyMs, firstAfterMs }, factors: undefined };
}
