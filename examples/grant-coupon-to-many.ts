/**
 * Grant a restricted coupon to a member list in one call: streamed (any async iterable, e.g. rows of
 * a CRM export), paced under the rate limit, one outcome per row, and resumable from a journal.
 * Here the first run is interrupted after 100 members (as Ctrl-C would) and the second resumes.
 *
 * Run: npx tsx examples/grant-coupon-to-many.ts   (the simulator; a real server with ADMIN_API_URL + ADMIN_API_KEY)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GrantMemberRow } from '../src/index.js';
import { step } from './support/report.js';
import { connect } from './support/target.js';

const target = await connect({ simulatorWindowMs: 2_000 });
const { admin, school } = target;
const dir = await mkdtemp(join(tmpdir(), 'grant-example-'));
try {
  const coupon = await step('Create a restricted (grant-only) coupon', async () => {
    const created = await admin.createCoupon({ name: 'Alumni 25%', couponType: 'percentage', amount: 25, restricted: true });
    return { value: created, line: `code ${created.code}` };
  });

  // A member list as it arrives from a CRM: streamed, with one bad row.
  async function* members(): AsyncGenerator<GrantMemberRow> {
    for (const email of school.memberEmails.slice(0, 250)) yield { email };
    yield { email: 'not-an-email' };
  }
  const journal = join(dir, 'alumni.journal');

  await step('Grant it to 251 rows; stop after 100 (as Ctrl-C would)', async () => {
    const stop = new AbortController();
    const summary = await admin.grantCouponToMany(coupon.id, members(), {
      journal,
      signal: stop.signal,
      // A small burst, so that the interruption shows (grants in flight finish and are journaled).
      concurrency: 20,
      onProgress: (progress) => progress.done === 100 && stop.abort(),
    });
    return { value: summary, line: `interrupted=${summary.interrupted}, ${summary.counts.created} created and journaled` };
  });

  await step('Run again with the same journal: done members are skipped', async () => {
    const problems: string[] = [];
    const summary = await admin.grantCouponToMany(coupon.id, members(), {
      journal,
      total: 251,
      onOutcome: (outcome) => {
        if (outcome.outcome === 'invalid' || outcome.outcome === 'failed') problems.push(`row ${outcome.index + 1}: ${outcome.outcome} (${outcome.error.message})`);
      },
      onProgress: (progress) => progress.done % 100 === 0 && console.log(`    ${progress.done}/${progress.total}, ETA ${Math.round((progress.etaMs ?? 0) / 1000)} s`),
    });
    const { created, skipped, invalid } = summary.counts;
    return { value: summary, line: `${created} created, ${skipped} skipped, ${invalid} invalid: ${problems.join('; ')}` };
  });
} finally {
  await rm(dir, { recursive: true, force: true });
  await target.close();
}
