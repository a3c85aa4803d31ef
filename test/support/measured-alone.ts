/**
 * Test files that hold a run to a time bound measured on the wall clock (a resumed job within 1.10 x
 * its bound, a wait's "s left" read by a child process) and start child processes to do it. Beside
 * the rest of the suite on 2 cores (load 12-20) they missed by CPU starvation, not by a pacing
 * fault (1.19-1.30 x, passing alone at 1.02-1.05 x): `npm test` runs them after the rest, one file
 * at a time (vitest.config.ts reads SCHOOL_ADMIN_MEASURED_ALONE).
 */
export const MEASURED_ALONE = ['test/workflows/resume-budget.test.ts', 'test/redis/resume-budget.test.ts', 'test/cli/waits.test.ts'];
