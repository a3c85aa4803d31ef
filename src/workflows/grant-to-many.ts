import type { RateLimitBudget } from '../client/options/options.js';
import type { CallOptions, GrantResult, MemberRef } from '../client/types/types.js';
import { telemetry } from '../client/events/telemetry.js';
import { LazyModule } from '../client/pipeline/lazy-module.js';
import { InvalidInputError } from '../errors/invalid-input-error.js';
import { NO_SECRETS } from '../errors/redactor.js';
import { PRIORITIES } from '../rate-limit/priority.js';
import type { Journal } from './journal.js';
import type { SpendingSource } from './journal/spending.js';
import { describeGrantFailure, endsTheJob, isPermanentGrantFailure } from './grant-to-many/grant-failure.js';
import { InterruptGate } from './grant-to-many/interrupt-gate.js';
import { checkMemberRow } from './grant-to-many/member-row.js';
import { ProgressTracker } from './grant-to-many/progress-tracker.js';
import { RowSource, type IndexedRow } from './grant-to-many/row-source.js';
import { UnreachableStreak } from './grant-to-many/unreachable-streak.js';
import type { GrantFailure, GrantMemberSource, GrantOutcome, GrantToManyOptions, GrantToManySummary } from './grant-to-many/types.js';

/** What the job needs of the client: one grant per call. */
export interface GrantCouponClient {
  grantCoupon(couponId: string, member: MemberRef, options?: CallOptions): Promise<GrantResult>;
}

/**
 * What the client knows that the job uses: its mutation budget (for the ETA and the default
 * concurrency), and for a journaled job its events and limiter (`SpendingSource`: the
 * journal records what the job spends, and a resumed run counts what an earlier one spent).
 */
export interface GrantJobContext extends SpendingSource {
  budget: RateLimitBudget | undefined;
  /** Where the journal's code comes from (not public: tests pass a module that fails to load). */
  journalModule?: LazyModule<JournalModule>;
  /** False when the client says `telemetry: false`: no instrumentation sees the job. */
  telemetry?: boolean;
}

type JournalModule = typeof import('./journal.js');
/**
 * Loaded only when asked for: importing the SDK must not pay for the journal's file code. The build
 * replaces this `import('./journal.js')` by the package's private import `#journal` (tsup.config.ts).
 */
const JOURNAL_MODULE = new LazyModule<JournalModule>('journal', () => import('./journal.js'));


/** Defaults of {@link GrantToManyOptions} that do not depend on the client. */
export const GRANT_TO_MANY_DEFAULTS = Object.freeze({
  interruptGraceMs: 5_000,
  retryFailed: 'all' as 'all' | 'temporary',
  /**
   * Most grants in flight unless told otherwise (`concurrency`; fewer when the mutation limit is
   * lower). Enough to reach the budget: by Little's law 64 requests in flight sustain 64 / round
   * trip, over 200 per minute for any round trip under 19 s (64 x 60 / 200); more only open more
   * connections (one per request in flight) while the limiter holds them anyway. Figures:
   * bench/README.md, "Bulk concurrency".
   */
  concurrency: 64,
  /** Grants in flight when pacing is off (`limits: false`): nothing says what the server allows. */
  unpacedConcurrency: 16,
});

const OPERATION = 'grantCouponToMany';
/** Errors of the job as a whole, raised before any grant. */
const JOB_CONTEXT = { operation: OPERATION, label: 'grant the coupon to many members', redactor: NO_SECRETS };

function refuse(field: string, problem: string): never {
  throw new InvalidInputError(`Failed to grant the coupon to many members: ${problem}. Nothing was sent.`, { operation: OPERATION, field });
}

function checkOptions(couponId: unknown, members: unknown, options: GrantToManyOptions): void {
  if (typeof couponId !== 'string' || couponId.trim() === '') refuse('couponId', 'couponId must be a non-empty string');
  const iterable = typeof members === 'object' && members !== null && (Symbol.iterator in members || Symbol.asyncIterator in members);
  if (!iterable) refuse('members', 'members must be an array, an iterable or an async iterable of { email } or { userId }');
  const { concurrency, interruptGraceMs, total, retryFailed, priority } = options;
  if (retryFailed !== undefined && retryFailed !== 'all' && retryFailed !== 'temporary') refuse('retryFailed', "retryFailed must be 'all' or 'temporary'");
  if (priority !== undefined && !PRIORITIES.includes(priority)) refuse('priority', "priority must be 'interactive' or 'background'");
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency > 0)) refuse('concurrency', 'concurrency must be a positive integer');
  if (interruptGraceMs !== undefined && !(interruptGraceMs >= 0)) refuse('interruptGraceMs', 'interruptGraceMs must be zero or more');
  if (total !== undefined && !(Number.isInteger(total) && total >= 0)) refuse('total', 'total must be a whole number');
}

/**
 * Runs a bulk grant (see `AdminClient.grantCouponToMany`, which calls it with the client's budget).
 * Workers take rows one at a time, so at most `concurrency` grants are in flight and the input is
 * never read ahead: memory stays flat however many members there are (the journal's index of
 * finished members, one small entry each, is the only thing that grows).
 */
export async function grantCouponToMany(
  client: GrantCouponClient,
  couponId: string,
  members: GrantMemberSource,
  options: GrantToManyOptions = {},
  context: GrantJobContext = { budget: undefined },
): Promise<GrantToManySummary> {
  checkOptions(couponId, members, options);
  const total = options.total ?? (Array.isArray(members) ? members.length : undefined);
  const run = () => runJob(client, couponId, members, options, context, total);
  // One span for the job, never one per row (school-admin-sdk/otel): its grants are the job's.
  const observer = context.telemetry === false ? undefined : telemetry();
  return observer === undefined ? run() : observer.job({ operation: OPERATION, rows: total }, run);
}

async function runJob(
  client: GrantCouponClient,
  couponId: string,
  members: GrantMemberSource,
  options: GrantToManyOptions,
  context: GrantJobContext,
  total: number | undefined,
): Promise<GrantToManySummary> {
  const now = options.now ?? (() => performance.now());
  const startedAt = now();
  const concurrency = options.concurrency ?? defaultConcurrency(context.budget);

  const journalModule = options.journal === undefined ? undefined : await (context.journalModule ?? JOURNAL_MODULE).get(JOB_CONTEXT, 'the job could not open its journal; nothing was sent');
  const journal = options.journal === undefined ? undefined : await journalModule?.openJournal(options.journal, { couponId });
  // Before the first request: a resumed run counts what the earlier runs still spend.
  const spending = await journal?.trackSpending(context);
  const tracker = new ProgressTracker({ total, budget: context.budget, startedAt, skipsAhead: journal?.done.size, earlierAnsweredAgoMs: spending?.earlierAnsweredAgoMs });
  const job = new GrantJob(client, couponId, journal, options, tracker, now);
  const source = new RowSource(members);
  const gate = new InterruptGate(options.signal, options.interruptGraceMs ?? GRANT_TO_MANY_DEFAULTS.interruptGraceMs);
  const failures: unknown[] = [];

  const worker = async (): Promise<void> => {
    while (!gate.stopping) {
      const next = await gate.unlessStopped(source.next());
      if (next === undefined || gate.stopping) return;
      await job.handle(next, gate);
    }
  };
  try {
    await Promise.all(
      Array.from({ length: concurrency }, () =>
        worker().catch((error: unknown) => {
          failures.push(error);
          gate.halt();
        }),
      ),
    );
  } finally {
    gate.dispose();
    spending?.stop();
    await source.close();
    await journal?.close();
  }
  // The first job-level error wins; later ones are usually the same failure seen by other workers.
  if (failures.length > 0) throw failures[0];

  const counts = job.tracker.counts;
  const unfinished = source.read - job.tracker.done;
  const interrupted = gate.interrupted;
  return {
    rows: source.read,
    counts: { ...counts },
    unfinished,
    durationMs: now() - startedAt,
    interrupted,
    allSucceeded: !interrupted && counts.failed === 0 && counts.invalid === 0,
    journalRecovery: journal?.recovery ?? null,
    journalStaleLock: journal?.staleLock ?? null,
  };
}

/**
 * A bounded number of grants in flight: each is a connection, and the limiter holds whatever the
 * budget does not allow anyway (a self-hosted budget of 100,000 per minute once put 2,999 of 3,000
 * grants on the wire at once and ran the process out of file descriptors).
 */
function defaultConcurrency(budget: RateLimitBudget | undefined): number {
  return budget === undefined ? GRANT_TO_MANY_DEFAULTS.unpacedConcurrency : Math.min(GRANT_TO_MANY_DEFAULTS.concurrency, budget.limit);
}

/** The per-row work of one job: check, skip, grant, journal, report. */
class GrantJob {
  /** Member keys with a grant in flight, so one member is never granted twice at once. */
  readonly #inFlight = new Map<string, Promise<void>>();
  /**
   * The job's first grant, sent alone: a coupon that is unknown or not restricted, a refused key,
   * or a server that cannot be reached, then costs one request instead of a whole burst.
   */
  #probe: Promise<void> | undefined;
  /** Stops the job when the server cannot be reached (its first grant, or several in a row). */
  readonly #unreachable = new UnreachableStreak();

  constructor(
    readonly client: GrantCouponClient,
    readonly couponId: string,
    readonly journal: Journal | undefined,
    readonly options: GrantToManyOptions,
    readonly tracker: ProgressTracker,
    readonly now: () => number,
  ) {}

  async handle({ index, row }: IndexedRow, gate: InterruptGate): Promise<void> {
    const checked = checkMemberRow(row);
    if (!checked.ok) {
      // Not journaled: re-checking is free, and a fixed row must not be skipped on resume.
      await this.#report({ outcome: 'invalid', index, row, reason: checked.reason, error: checked.error });
      return;
    }
    const { member, key } = checked;
    if (this.#probe !== undefined) await this.#probe;
    // A duplicate of a member still in flight waits for it, then sees the journal's answer.
    for (let running = this.#inFlight.get(key); running !== undefined; running = this.#inFlight.get(key)) await running;
    const previous = this.journal?.done.get(key);
    if (previous !== undefined) {
      const grantId = previous.grantId === undefined ? {} : { grantId: previous.grantId };
      await this.#report({ outcome: 'skipped', index, row, member, previous: previous.outcome as 'created' | 'already_granted' | 'invalid', ...grantId });
      return;
    }
    const recorded = this.#permanentFailure(key);
    if (recorded !== undefined) {
      await this.#report({ outcome: 'failed', index, row, member, sent: false, error: recorded });
      return;
    }
    // Stopped while this row waited (an interrupt, or the probe ended the job): it is left for another run.
    if (gate.stopping) return;
    const granting = this.#grant(index, row, member, gate);
    this.#probe ??= granting.then(noop, noop);
    this.#inFlight.set(key, granting.then(noop, noop));
    try {
      await granting;
    } finally {
      this.#inFlight.delete(key);
    }
  }

  async #grant(index: number, row: IndexedRow['row'], member: MemberRef, gate: InterruptGate): Promise<void> {
    const call = await gate.run((signal) => this.client.grantCoupon(this.couponId, member, { signal, priority: this.options.priority ?? 'background' }));
    if (!call.ok) {
      // Cancelled by an interrupt: unknown whether it reached the server, so it is left for the
      // resumed run (granting is idempotent).
      if (call.cancelled) return;
      const failure = describeGrantFailure(call.error);
      const fatal = this.#unreachable.record(call.error) || endsTheJob(call.error);
      // Halted at once, so no row waiting for this grant (the probe) is sent after a job-level error.
      if (fatal) gate.halt();
      await this.journal?.append({ member, outcome: 'failed', error: { ...(failure.code === undefined ? {} : { code: failure.code }), message: failure.message } });
      await this.#report({ outcome: 'failed', index, row, member, sent: true, error: failure });
      if (fatal) throw call.error;
      return;
    }
    this.#unreachable.record(undefined);
    const result = call.value;
    const outcome = result.created ? 'created' : 'already_granted';
    await this.journal?.append({ member, outcome, grantId: result.grant.id });
    await this.#report({ outcome, index, row, member, grant: result.grant });
  }

  /** The journaled failure of a member not to send again (`retryFailed: 'temporary'` and a permanent failure). */
  #permanentFailure(key: string): GrantFailure | undefined {
    if ((this.options.retryFailed ?? GRANT_TO_MANY_DEFAULTS.retryFailed) !== 'temporary') return undefined;
    const entry = this.journal?.failed.get(key);
    const error = entry?.error;
    if (entry === undefined || error === undefined || !isPermanentGrantFailure(error)) return undefined;
    return { ...(error.code === undefined ? {} : { code: error.code }), message: error.message, name: 'CodedError', cause: entry };
  }

  async #report(outcome: GrantOutcome): Promise<void> {
    this.tracker.record(outcome.outcome, this.now(), costRequest(outcome));
    const progress = this.tracker.snapshot(this.now());
    await this.options.onOutcome?.(outcome);
    this.options.onProgress?.(progress);
  }
}

function noop(): void {}

export type * from './grant-to-many/types.js';

/** True when the row's grant was sent by this run (it counts against the rate limit). */
function costRequest(outcome: GrantOutcome): boolean {
  if (outcome.outcome === 'failed') return outcome.sent;
  return outcome.outcome === 'created' || outcome.outcome === 'already_granted';
}
