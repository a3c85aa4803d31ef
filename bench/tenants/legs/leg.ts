import type { PermitStore } from '../../../src/rate-limit/permit-store.js';
import type { BenchSdk } from '../sdk.js';

/**
 * The goals a leg's figures are held to (undefined: not a goal of that store). Figures are
 * measured per cell by bench/tenants/cell-worker.ts; a missed goal makes the run exit 1.
 */
export interface LegGoals {
  /** Most heap (plus array buffers) per request counted in a window, in bytes. */
  heapPerCounted?: number;
  /** Most heap per idle client (fresh, and after use once its counts ended), in bytes. */
  heapPerIdleClient?: number;
  /** Least calls per second against bare fetch's in the same cell (burst cells). */
  throughputVsBare?: number;
  /** Most job time / bound of the worst key (paced cells: every key's job within its own bound). */
  jobOverBound?: number;
}

/** A store opened for one cell (in the cell's own process). */
export interface OpenLeg {
  /**
   * A fresh store for one run of the cell (its clients share it); undefined: the SDK's default
   * (one memory store per process).
   */
  store(): PermitStore | undefined;
  /**
   * Lets the store forget what no longer counts (a memory store forgets idle buckets only as it
   * is used), before the heap of the used, idle clients is measured. Optional.
   */
  sweep?(store: PermitStore | undefined): Promise<void>;
  /** Everything the leg started (servers, connections) stops. */
  close(): Promise<void>;
}

/**
 * One store the tenants benchmark runs (a "leg"): one small module each under bench/tenants/legs/,
 * listed in legs/index.ts. A leg opens its store inside each cell's process.
 */
export interface StoreLeg {
  /** The name on the command line (`--legs memory,ioredis`) and in the tables. */
  name: string;
  /** One line: which store, over what. */
  description: string;
  goals: LegGoals;
  open(sdk: BenchSdk): Promise<OpenLeg>;
}
