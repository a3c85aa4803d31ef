/** Members granted by the memory benchmark. */
export const MEMBERS = 20_000;

/** The first checkpoint: peak RSS up to this many members done. */
export const EARLY_CHECKPOINT = 2_000;

/** Largest accepted ratio of the peak RSS at the end to the peak at the first checkpoint. */
export const MAX_RATIO = 1.3;

/** A scaled window (a self-hosted setting): 2,000 grants per second, so 20,000 take about ten seconds. */
export const BUDGET = { limit: 2_000, windowMs: 1_000 };

/** The email of bench member `index` (0-based). */
export function benchMemberEmail(index: number): string {
  return `member-${String(index + 1).padStart(6, '0')}@bench.example`;
}
