import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/index.js';
import { openJournal } from '../../src/workflows/journal-unavailable.js';

describe('the journal where no file system is (what #journal resolves to for workerd, worker and browser bundles)', () => {
  it('refuses to open with an InvalidInputError on `journal`, naming the runtimes that have one', async () => {
    const error = await openJournal('grants.journal', { couponId: 'c-1' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ field: 'journal', operation: 'openJournal', local: true });
    expect((error as Error).message).toMatch(/^Failed to open the journal grants\.journal: this runtime has no file system .*Node\.js, Deno or Bun.*\. Run grantCouponToMany without `journal`/);
  });
});
