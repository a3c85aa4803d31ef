import type { CallOptions, GrantResult, MemberRef } from '../../../src/index.js';
import type { GrantCouponClient } from '../../../src/workflows/grant-to-many.js';

/** One grant call the test controls: settle it when the test says so. */
export interface PendingGrant {
  member: MemberRef;
  signal: AbortSignal | undefined;
  succeed(created?: boolean): void;
  fail(error: unknown): void;
}

/**
 * A `grantCoupon` whose calls wait until the test settles them (or their signal aborts), and that
 * records how many were in flight at most.
 */
export class ScriptedGrants implements GrantCouponClient {
  readonly pending: PendingGrant[] = [];
  readonly sent: MemberRef[] = [];
  inFlight = 0;
  maxInFlight = 0;
  #waiters: Array<() => void> = [];

  grantCoupon(_couponId: string, member: MemberRef, options?: CallOptions): Promise<GrantResult> {
    this.sent.push(member);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    return new Promise<GrantResult>((resolve, reject) => {
      const settle = (): void => {
        this.inFlight -= 1;
        const index = this.pending.indexOf(entry);
        if (index >= 0) this.pending.splice(index, 1);
      };
      const entry: PendingGrant = {
        member,
        signal: options?.signal,
        succeed: (created = true) => {
          settle();
          resolve({ grant: grantFor(member, this.sent.length), created });
        },
        fail: (error) => {
          settle();
          reject(error);
        },
      };
      options?.signal?.addEventListener('abort', () => entry.fail(options.signal?.reason), { once: true });
      this.pending.push(entry);
      for (const wake of this.#waiters.splice(0)) wake();
    });
  }

  /** Resolves once at least `count` calls are pending. */
  async waitForPending(count: number): Promise<void> {
    while (this.pending.length < count) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  /** Lets the job's first grant (sent alone, as a probe) succeed, so the others can start. */
  async passProbe(): Promise<void> {
    await this.waitForPending(1);
    this.succeedAll();
  }

  /** Settles every pending call with success. */
  succeedAll(): void {
    for (const entry of [...this.pending]) entry.succeed();
  }
}

/** A grant record as the API returns it. */
export function grantFor(member: MemberRef, n: number): GrantResult['grant'] {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    status: 'granted',
    userName: null,
    userEmail: member.email ?? null,
    grantedByName: null,
    grantedAt: 1_795_000_000,
    redeemedAt: null,
    revokedAt: null,
  };
}
