import type { StartName } from './starts.js';

/** What a cell of the tenants matrix asks of its keys, whatever the store (bench:tenants and bench:tenants:redis). */
export interface CellShape {
  keys: number;
  /** Each key's budget: `budget` grants per `windowMs`. */
  budget: number;
  windowMs: number;
  /**
   * `burst`: each key grants its full budget at once, twice (a window apart): calls per second
   * against bare fetch's, and heap. `paced`: each key grants three budgets' worth, all keys at
   * once: every key's job time against its own bound.
   */
  kind: 'burst' | 'paced';
  /** The offered load of a paced cell, by name (`light`, `heavy`), or `burst`. */
  load: string;
  /** Grants per key. */
  jobPerKey: number;
  /** How long the fake server takes to answer. */
  delayMs: number;
  /** When the keys of a paced cell start their jobs (bench/tenants/starts.ts). @default 'together' */
  start?: StartName;
}

/** One cell of the tenants matrix, as the orchestrator plans it and a worker process runs it. */
export interface CellSpec extends CellShape {
  /** The store (a leg of legs/index.ts). */
  leg: string;
  /** The build run: a dist/ folder. */
  dist: string;
  /** How the tables name that build (`now`, `c07ece8`). */
  sdkLabel: string;
}

/** Heap figures of a burst cell (bytes: V8 heap used plus array buffers, after a full GC). */
export interface HeapFigures {
  /** Per client, created and not used yet. */
  freshIdlePerClient: number;
  /** Per client, after its calls, once their counts ended and the store forgot them. */
  usedIdlePerClient: number;
  /** Per request counted, against the same clients before their first call. */
  perCounted: number;
  /** Per request counted, against the same clients used and idle (what counting alone holds). */
  perCountedVsUsedIdle: number;
  /** Requests counted when measured. */
  counted: number;
  /** How long after the first answer the counted heap was read (it must be within the window). */
  measuredAfterFirstAnswerMs: number;
  /** Of which array buffers (outside V8's heap), at the counted reading, per request counted. */
  buffersPerCounted: number;
}

/** Every key's job against its bound, in a paced cell. */
export interface JobFigures {
  /** Job time / bound: the worst key, the median key, the 99th percentile. */
  worst: number;
  median: number;
  p99: number;
  /** The worst key's job and bound (bench/tenants/ideal-pacer.ts), in ms, and its mean round trip. */
  worstJobMs: number;
  worstBoundMs: number;
  worstRttMs: number;
  /** The keys' mean round trips, averaged. */
  meanRttMs: number;
  /** From the start to the last key's last answer. */
  wallMs: number;
  /**
   * Where the time went (bench/tenants/lateness.ts), the median key and the worst key: when its
   * first window left, and how late its later requests left after their slot freed. Absent in
   * runs before 2026-11-29.
   */
  firstWindowMs?: number;
  reuseLagMs?: number;
  worstFirstWindowMs?: number;
  worstReuseLagMs?: number;
}

/** What a worker reports for its cell. */
export interface CellResult {
  spec: CellSpec;
  /** Calls per second of the SDK's rounds (burst: two rounds; paced: the whole job). */
  sdkCallsPerSecond: number[];
  /** Calls per second of bare fetch in the same process, same calls (burst cells: before and after the SDK's rounds). */
  bareCallsPerSecond: number[];
  /**
   * Burst cells of up to 200,000 calls: SDK rounds alternating with bare fetch rounds (bare, SDK,
   * bare, ..., bare: one bare round more), each SDK round with fresh clients, store and keys.
   */
  alternating?: { sdk: number[]; bare: number[] } | undefined;
  heap: HeapFigures | undefined;
  jobs: JobFigures | undefined;
  /** Requests over a key's budget in a sliding window, as the server would count them. */
  overLimit: number;
  /** Calls that failed (any error). */
  failed: number;
  /** 1-minute load average when the cell started and ended. */
  load: [number, number];
}
