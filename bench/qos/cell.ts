import type { Budget } from './setup.js';

/**
 * Where the bulk job and the interactive calls run: through one `AdminClient`; through two clients
 * of the key in one process (sharing the process's default `MemoryPermitStore`); or in two
 * processes sharing a `RedisPermitStore`.
 */
export type Topology = 'one' | 'two-clients' | 'two-processes';

/** When the interactive traffic starts: with the bulk job, half a window after it, or three windows after it. */
export type Start = 'with' | 'mid' | 'later';

/** Interactive calls one at a time, or three at once (the same total rate). */
export type Shape = 'single' | 'burst3';

/**
 * The interactive traffic of a cell: `burst` calls at once, every `periodMs`, the first
 * `firstAfterMs` after the start (the bulk job's, unless it waits `bulkAfterMs`), none from
 * `untilMs` after the start on (absent: until the job ends).
 */
export interface InteractivePlan {
  burst: number;
  periodMs: number;
  firstAfterMs: number;
  untilMs?: number;
}

/** A batch-mode cell's start: on an empty window, or after a window of other traffic (interactive calls, bursts of 3, at 20% of the budget). */
export type BatchStart = 'empty' | 'after';

/** The matrix coordinates of a cell (absent for a named scenario). */
export interface CellFactors {
  /** Interactive calls per window, as a share of the budget (0.02 = 2 %). */
  load: number;
  start: Start;
  shape: Shape;
}

/** One run to measure: a server with `budget`, a bulk job of `bulkGrants`, and interactive traffic beside it. */
export interface CellPlan {
  /** `matrix`, or the named scenario's name. */
  name: string;
  budget: Budget;
  topology: Topology;
  bulkGrants: number;
  interactive: InteractivePlan | undefined;
  factors: CellFactors | undefined;
  /** `limits.interactiveReserve` for every client of the cell; absent: default options. 0 is batch mode. */
  interactiveReserve?: number;
  /** The bulk job's `concurrency` (each process's part of it); absent: the job's default. */
  concurrency?: number;
  /**
   * The batch matrix (issue 27): no interactive call while the job runs; the job starts on an empty
   * window or a window after other traffic (`interactive`, which ends as the job starts), and with
   * two clients or processes each runs half of it.
   */
  batch?: { start: BatchStart };
}

/** One interactive call: when it was made (epoch ms), how long until its answer, and whether it succeeded. */
export interface InteractiveCall {
  at: number;
  ms: number;
  ok: boolean;
}

/** The mutation requests a process sent (epoch ms, so processes can be combined), their round trips and 429s. */
export interface MutationLog {
  /** When each mutation attempt of this process was sent. */
  sentAt: number[];
  /** Round trip of each mutation attempt that got a response (send to response). */
  roundTripMs: number[];
  /** 429 answers this process received. */
  rateLimited: number;
}

/** What one process of a cell measured. */
export interface CellProcessRun extends MutationLog {
  interactive: InteractiveCall[];
  bulkStartedAt: number | undefined;
  bulkFinishedAt: number | undefined;
  bulkOk: number;
  bulkFailed: number;
  /** `waiting` events by reason (what the client said held a call). */
  waiting: Record<string, number>;
}

/** What a worker process is asked to run (passed as one JSON argument). */
export interface WorkerPlan {
  url: string;
  meetingId: string;
  /** Another key of the school: the process warms its code up on it before the cell starts (its budget is its own). */
  warmKey: string;
  budget: Budget;
  /** `default`: the process's default store (no `store` option); otherwise a Redis URL for a `RedisPermitStore`. */
  store: string;
  /** With both roles in the process: one client for both, or one client each. */
  clients: 1 | 2;
  /** Present when this process runs the bulk job. */
  bulkGrants: number | undefined;
  /** Present when this process makes the interactive calls. */
  interactive: InteractivePlan | undefined;
  /** `limits.interactiveReserve` for this process's clients; absent: the default. */
  interactiveReserve?: number;
  /** The bulk job's `concurrency`; absent: the job's default. */
  concurrency?: number;
  /** How long after the start the bulk job begins (other traffic first). @default 0 */
  bulkAfterMs?: number;
  /** With two clients: each runs half of the bulk job (the second one also the interactive calls). */
  split?: boolean;
  /** The first member of this process's part of the job (a job split between processes). @default 0 */
  firstMember?: number;
}

/** An empty run record. */
export function emptyRun(): CellProcessRun {
  return { interactive: [], bulkStartedAt: undefined, bulkFinishedAt: undefined, bulkOk: 0, bulkFailed: 0, sentAt: [], roundTripMs: [], rateLimited: 0, waiting: {} };
}
