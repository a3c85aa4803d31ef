/** Members granted by the memory benchmark. */
export const MEMBERS = 20_000;

/** The first checkpoint: peak RSS up to this many members done. */
export const EARLY_CHECKPOINT = 2_000;

/** Largest accepted ratio of the peak RSS at the end to the peak at the first checkpoint. */
export const MAX_RATIO = 1.3;

/**
 * A scaled window (a self-hosted setting): the documented burst of 200, in a 100 ms window, so
 * 2,000 grants per second at most and the job's default concurrency (the limit) is the real one.
 */
export const BUDGET = { limit: 200, windowMs: 100 };

/** The email of bench member `index` (0-based). */
export function benchMemberEmail(index: number): string {
  return `member-${String(index + 1).padStart(6, '0')}@bench.example`;
}
