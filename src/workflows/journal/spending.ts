import { hostname } from 'node:os';
import type { ClientEvents } from '../../client/events/client-events.js';
import type { LimiterBudget, RateLimiter } from '../../rate-limit/limiter.js';
import type { EarlierSend } from '../../rate-limit/permit-store.js';
import type { JournalBudgetRecord, JournalSpendingRecord } from './records.js';

/*
 * What a journaled job spent of the rate-limit budget, so that a run resumed after a crash starts
 * with it counted: a killed process takes with it the count of what it sent in the last window,
 * which the server still counts. Every run records, in its journal, who it is (`run`), the budget in
 * force (`budget`, again whenever it changes) and each mutation request its client sends and gets
 * answered (`sent`, `answered`). A resumed run in another process hands the requests that may
 * still count to the limiter (`RateLimiter.seedEarlier`), which has the store count them
 * (`PermitStore.seed`: the memory store; a Redis store granted them itself and counts them already).
 *
 * What a journal cannot know: requests of other processes or clients on the same key that are not
 * this job's (share the budget through Redis for those), and, for a run on a journal written by
 * an SDK before these records (version 1), anything at all.
 */

/** What a journaled job needs of its client to record what it spends. */
export interface SpendingSource {
  /** The client's events: its mutation requests and their answers are recorded. */
  events?: ClientEvents | undefined;
  /**
   * The client's limiter: its budget in force and its lease (how long an unanswered request may
   * still reach the server) are recorded, and earlier runs' requests are counted through it.
   */
  limiter?: RateLimiter | undefined;
}

/** A run's view of what earlier runs spent, and the end of its own recording. */
export interface SpendingTrack {
  /** How long ago, in ms, each request of an earlier process that still counts was answered (or may have reached the server). */
  earlierAnsweredAgoMs: number[];
  /** Stops recording this run's requests (before the journal closes). */
  stop(): void;
}

/** One request of an earlier run. */
interface EarlierRequest {
  process: string;
  sentAt: number;
  answeredAt: number | undefined;
  leaseMs: number | undefined;
}

/** What the journal says earlier runs spent: their requests, and the budget in force when the last one stopped. */
export interface EarlierSpending {
  requests: EarlierRequest[];
  budget: JournalBudgetRecord | undefined;
}

/**
 * This process as a journal names it: host, pid and start time, so that a pid reused after a
 * reboot is another process (its requests were not counted by this process's store).
 */
export function thisProcess(): string {
  return `${hostname()}:${process.pid}:${Math.round(performance.timeOrigin)}`;
}

/** Reads the spending records of a journal (in file order) into the requests of earlier runs and the last budget. */
export function readEarlierSpending(records: readonly JournalSpendingRecord[]): EarlierSpending {
  const requests = new Map<string, EarlierRequest>();
  let run: { process: string; leaseMs: number | undefined } = { process: '', leaseMs: undefined };
  let budget: JournalBudgetRecord | undefined;
  for (const record of records) {
    if (record.type === 'run') run = { process: record.process, leaseMs: record.leaseMs };
    else if (record.type === 'budget') budget = record;
    else if (record.type === 'sent') requests.set(`${run.process} ${record.request}`, { process: run.process, sentAt: record.atMs, answeredAt: undefined, leaseMs: run.leaseMs });
    else {
      const request = requests.get(`${run.process} ${record.request}`);
      if (request !== undefined) request.answeredAt = record.atMs;
    }
  }
  return { requests: [...requests.values()], budget };
}

/**
 * The requests of processes other than `me` that may still count at `now`, as the store counts
 * its own: until a window after the answer. One never answered (its process died while it was in
 * flight) may have reached the server until now, or its lease's end if that came first.
 */
export function stillCounting(earlier: EarlierSpending, me: string, now: number, windowMs: number): EarlierSend[] {
  const sends: EarlierSend[] = [];
  for (const request of earlier.requests) {
    if (request.process === me) continue; // this process's store counted them
    const answeredAt = request.answeredAt ?? Math.min(now, request.sentAt + (request.leaseMs ?? Number.POSITIVE_INFINITY));
    if (answeredAt + windowMs > now) sends.push({ sentAt: request.sentAt, answeredAt });
  }
  return sends.sort((a, b) => a.answeredAt - b.answeredAt);
}

/** The budget an earlier run learnt from the server, for a resumed run to start at. */
export function learntBudget(earlier: EarlierSpending): LimiterBudget | undefined {
  const { budget } = earlier;
  return budget?.source === 'server' ? { limit: budget.limit, windowMs: budget.windowMs } : undefined;
}

/**
 * Records a run in the journal through `write`: who runs it, the mutation budget in force (and
 * again when it changes), and each mutation request its client sends and gets answered. Returns
 * the function that stops recording.
 */
export function recordSpending(write: (record: JournalSpendingRecord) => void, source: SpendingSource, me: string): () => void {
  const { events, limiter } = source;
  // A job run through a bare client (no events to hear) has no requests to record.
  if (events === undefined) return () => undefined;
  write({ type: 'run', process: me, ...(limiter === undefined ? {} : { leaseMs: limiter.leaseMs }), atMs: Date.now() });
  let recorded = '';
  const budget = (): void => {
    if (limiter === undefined) return;
    const { limit, windowMs, source: from } = limiter.budgetInForce('mutations');
    if (`${limit}/${windowMs}/${from}` === recorded) return;
    recorded = `${limit}/${windowMs}/${from}`;
    write({ type: 'budget', limit, windowMs, source: from, atMs: Date.now() });
  };
  budget();
  const stops = [
    events.on('request', (event) => {
      if (event.operationType !== 'mutations') return;
      budget();
      write({ type: 'sent', request: `${event.callId}#${event.attempt}`, atMs: Date.now() });
    }),
    events.on('response', (event) => {
      if (event.operationType === 'mutations') write({ type: 'answered', request: `${event.callId}#${event.attempt}`, atMs: Date.now() });
    }),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
