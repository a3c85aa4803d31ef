import type { CellShape } from '../tenants/cell.js';

/**
 * One cell of the Redis tenants matrix (bench/tenants-redis.ts), as the orchestrator plans it and a
 * worker process runs it. The cells, loads and figures follow bench:tenants (issue 28's memory-store
 * benchmark) so that these legs can join it.
 */
export interface CellSpec extends CellShape {
  /** The store: a leg of legs.ts. */
  leg: string;
  /** The SDK sources run: `now` (this checkout) or a commit (e.g. c07ece8). */
  build: string;
}

/** What a worker reports for its cell. */
export interface CellResult {
  spec: CellSpec;
  /** Calls per second of the SDK's rounds (burst: two rounds; paced: the whole job). */
  sdkCallsPerSecond: number[];
  /** Calls per second of bare fetch + JSON.parse in the same process, same calls (burst cells). */
  bareCallsPerSecond: number[];
  /** Heap (V8 heap used plus array buffers, after a full GC) per request counted in a window (burst cells). */
  heapPerCounted: number | undefined;
  /** The same, read 8 s later while the round's requests still count (undefined when the window is too short). */
  heapPerCountedLater?: number | undefined;
  /** Job time / bound of the worst key, the median key, the 99th percentile (paced cells). */
  jobs:
    | {
        worst: number;
        median: number;
        p99: number;
        worstJobMs: number;
        worstBoundMs: number;
        wallMs: number;
        /** Median over keys: when the key's first window (its budget-th request) left, from the start. */
        firstWindowMs?: number;
        /** Median over keys: how late each later request left after its slot freed, on average. */
        reuseLagMs?: number;
      }
    | undefined;
  /** Store round trips per permit granted: socket reads Redis processed (INFO stats total_reads_processed, all masters). */
  roundTripsPerPermit: number;
  /** Script calls per permit granted (INFO commandstats: EVALSHA + EVAL, all masters). */
  scriptCallsPerPermit: number;
  /** Requests over a key's budget in a sliding window, as the server would count them. */
  overLimit: number;
  /** Calls that failed (any error). */
  failed: number;
  /** 1-minute load average when the cell started and ended. */
  load: [number, number];
}

/**
 * The offered loads of paced cells, in calls per second of every key's budget together: `light` and
 * `heavy` as bench:tenants; `gentle` (250) and `idle` (60) are loads a loaded 2-core machine
 * carries through Redis (0.2-1.7 k calls/s measured), so that a job over its bound there says the
 * store starved a key, not that the machine ran out of CPU for every key alike.
 */
export const LOADS: Readonly<Record<string, number | 'burst'>> = { burst: 'burst', idle: 60, gentle: 250, light: 2_000, heavy: 8_000 };

/** The names of {@link LOADS}. */
export const REDIS_LOAD_NAMES: readonly string[] = Object.keys(LOADS);

/** The loads a run takes unless told: `light` and `heavy` are more than this machine carries through Redis. */
export const REDIS_DEFAULT_LOADS: readonly string[] = ['burst', 'idle', 'gentle'];

/** A cell of the matrix. */
export function cellSpec(leg: string, build: string, keys: number, budget: number, load: string): CellSpec {
  const rate = LOADS[load];
  if (rate === undefined) throw new Error(`Failed to plan the cell: no load named ${load} (known: ${Object.keys(LOADS).join(', ')}).`);
  const base = { leg, build, keys, budget, load, delayMs: 2 };
  if (rate === 'burst') {
    // Long enough that every request of the burst still counts when the heap is read after it, and
    // 8 s later, at 500 calls/s (what a loaded 2-core machine gave the Redis legs).
    const windowMs = Math.min(300_000, Math.ceil((keys * budget * 1000) / 500) + 15_000);
    return { ...base, kind: 'burst', windowMs, jobPerKey: budget };
  }
  const windowMs = Math.min(60_000, Math.max(1_000, Math.round((keys * budget * 1000) / rate)));
  return { ...base, kind: 'paced', windowMs, jobPerKey: 3 * budget };
}
