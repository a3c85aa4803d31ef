import type { CellPlan } from './cell.js';

/**
 * Issue 20's three measured "before" cases, one client with default options, the first
 * interactive call exactly at its start (no random phase), one call at a time:
 * - `issue20-a`: 20 per 2 s, grantCouponToMany of 160, one call every 400 ms from 400 ms after the job;
 * - `issue20-b`: 200 per 6 s, 1,000 grants, one call every 500 ms from the job's start;
 * - `issue20-c`: 50 per 3 s and 500 grants as in issue 13's bench, the calls from 400 ms after the job.
 */
export const ISSUE_20_SCENARIOS: Readonly<Record<string, CellPlan>> = {
  'issue20-a': {
    name: 'issue20-a (160, every 400 ms from 400)',
    budget: { limit: 20, windowMs: 2_000 },
    topology: 'one',
    bulkGrants: 160,
    interactive: { burst: 1, periodMs: 400, firstAfterMs: 400 },
    factors: undefined,
  },
  'issue20-b': {
    name: 'issue20-b (1000, every 500 ms from 0)',
    budget: { limit: 200, windowMs: 6_000 },
    topology: 'one',
    bulkGrants: 1_000,
    interactive: { burst: 1, periodMs: 500, firstAfterMs: 0 },
    factors: undefined,
  },
  'issue20-c': {
    name: 'issue20-c (500, every 500 ms from 400)',
    budget: { limit: 50, windowMs: 3_000 },
    topology: 'one',
    bulkGrants: 500,
    interactive: { burst: 1, periodMs: 500, firstAfterMs: 400 },
    factors: undefined,
  },
};
