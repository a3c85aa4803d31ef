import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidInputError, type GrantOutcome } from '../../src/index.js';
import { isPermanentGrantFailure } from '../../src/workflows/grant-to-many/grant-failure.js';
import { grantSchool } from './support/grant-school.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'grant-retry-failed-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A first run with a journal: one grant hits GENERAL-001, a deleted account fails with ENROLLMENT-002, one member is granted. */
async function firstRun() {
  const school = grantSchool(2, { client: { maxRetries: 0 } });
  const journal = join(dir, 'grants.journal');
  const rows = [{ email: school.emails[1] }, { email: school.deletedEmail }, { email: school.emails[0] }];
  school.simulator.failNextExecution('createCouponGrant', 1);
  const outcomes: GrantOutcome[] = [];
  const first = await school.admin.grantCouponToMany(school.couponId, rows, { journal, concurrency: 1, onOutcome: (outcome) => void outcomes.push(outcome) });
  expect(first.counts).toMatchObject({ created: 1, failed: 2 });
  expect(outcomes.flatMap((outcome) => (outcome.outcome === 'failed' ? [outcome.error.code] : []))).toEqual(['GENERAL-001', 'ENROLLMENT-002']);
  return { school, journal, rows, sent: () => school.simulator.stats().requests.mutations };
}

describe("grantCouponToMany retryFailed: which journaled failures a resumed run sends again", () => {
  it("'temporary': a permanent failure (ENROLLMENT-002) is reported failed again without a request (sent: false); a GENERAL-001 one is sent", async () => {
    const { school, journal, rows, sent } = await firstRun();
    const before = sent();
    const outcomes: GrantOutcome[] = [];
    const resumed = await school.admin.grantCouponToMany(school.couponId, rows, { journal, retryFailed: 'temporary', onOutcome: (outcome) => void outcomes.push(outcome) });
    expect(sent() - before).toBe(1);
    expect(resumed.counts).toMatchObject({ skipped: 1, created: 1, failed: 1 });
    expect(resumed.allSucceeded).toBe(false);
    const failed = outcomes.find((outcome) => outcome.outcome === 'failed');
    expect(failed).toMatchObject({ index: 1, sent: false, error: { code: 'ENROLLMENT-002', name: 'CodedError', message: expect.stringContaining('ENROLLMENT-002') } });
  });

  it("'all' (the default) sends every journaled failure again", async () => {
    const { school, journal, rows, sent } = await firstRun();
    const before = sent();
    const outcomes: GrantOutcome[] = [];
    const resumed = await school.admin.grantCouponToMany(school.couponId, rows, { journal, onOutcome: (outcome) => void outcomes.push(outcome) });
    expect(sent() - before).toBe(2);
    expect(resumed.counts).toMatchObject({ skipped: 1, created: 1, failed: 1 });
    expect(outcomes.find((outcome) => outcome.outcome === 'failed')).toMatchObject({ sent: true, error: { code: 'ENROLLMENT-002' } });
  });

  it('a failure of this run has sent: true', async () => {
    const school = grantSchool(1);
    const outcomes: GrantOutcome[] = [];
    await school.admin.grantCouponToMany(school.couponId, [{ email: school.deletedEmail }], { retryFailed: 'temporary', onOutcome: (outcome) => void outcomes.push(outcome) });
    expect(outcomes).toMatchObject([{ outcome: 'failed', sent: true }]);
  });

  it('any other value is refused before anything is sent', async () => {
    const school = grantSchool(1);
    await expect(school.admin.grantCouponToMany(school.couponId, [{ email: school.emails[0] }], { retryFailed: 'none' as never })).rejects.toBeInstanceOf(InvalidInputError);
    expect(school.simulator.stats().requests.mutations).toBe(0);
  });
});

describe('isPermanentGrantFailure: fails the same way if sent again', () => {
  it.each([
    [{ code: 'ENROLLMENT-002' }, true],
    [{ code: 'COUPON-003', name: 'CodedError' }, true],
    [{ name: 'PayloadError' }, true],
    [{ code: 'GENERAL-001', name: 'CodedError' }, false],
    [{ name: 'NetworkError' }, false],
    [{ name: 'TimeoutError' }, false],
    [{ name: 'RateLimitError' }, false],
    [{}, false],
  ])('%j -> %s', (failure, permanent) => {
    expect(isPermanentGrantFailure(failure)).toBe(permanent);
  });
});
