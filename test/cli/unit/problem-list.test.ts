import { describe, expect, it } from 'vitest';
import { ProblemList } from '../../../src/cli/support/problem-list.js';
import { RateLimitError } from '../../../src/index.js';
import type { GrantOutcome } from '../../../src/workflows/grant-to-many/types.js';

const notMember = (index: number, sent = true): GrantOutcome => ({
  outcome: 'failed',
  index,
  row: { line: index + 2, email: `ghost-${index}@x.example` } as GrantOutcome['row'],
  member: { email: `ghost-${index}@x.example` },
  sent,
  error: { code: 'ENROLLMENT-002', name: 'CodedError', message: 'Failed to grant the coupon: the user was not found in this school (ENROLLMENT-002). Check the member; deleted accounts and members of other schools cannot be used.', cause: undefined },
});
const invalid = (index: number): GrantOutcome => ({ outcome: 'invalid', index, row: { line: index + 2, email: 'x' } as GrantOutcome['row'], reason: 'invalid_email', error: { message: 'the email is not a valid address' } });
const timeout = (index: number): GrantOutcome => ({
  outcome: 'failed',
  index,
  row: { line: index + 2, email: 'late@x.example' } as GrantOutcome['row'],
  member: { email: 'late@x.example' },
  sent: true,
  error: { name: 'TimeoutError', message: 'Failed to grant the coupon: no answer within 30 s. Try again.', cause: undefined },
});

describe('Problems: listed in input order, each code\'s remedy once', () => {
  it('outcomes arriving out of order are listed by line; only the first `limit` lines are kept', () => {
    const list = new ProblemList(3);
    for (const outcome of [invalid(9), notMember(4), timeout(7), invalid(1), notMember(12, false)]) list.add(outcome);
    expect(list.total).toBe(5);
    expect(list.lines()).toEqual([
      '  line 3: invalid (invalid_email): the email is not a valid address',
      '  line 6: failed ENROLLMENT-002 (the user was not found in this school)',
      '  line 9: failed (TimeoutError): Failed to grant the coupon: no answer within 30 s. Try again.',
      'ENROLLMENT-002: Check the member; deleted accounts and members of other schools cannot be used.',
    ]);
  });

  it('a permanent failure not sent again says so; its remedy is printed once for all its rows', () => {
    const list = new ProblemList(10);
    list.add(notMember(0, false));
    list.add(notMember(1));
    list.add({ outcome: 'created', index: 2, row: { email: 'a@x.example' }, member: { email: 'a@x.example' }, grant: { id: 'g' } as never });
    expect(list.lines()).toEqual([
      '  line 2: failed ENROLLMENT-002 (the user was not found in this school); not sent again (--retry-failed sends it)',
      '  line 3: failed ENROLLMENT-002 (the user was not found in this school)',
      'ENROLLMENT-002: Check the member; deleted accounts and members of other schools cannot be used.',
    ]);
  });

  it('a rate limit the client could not get past is worded without client option names', () => {
    const cause = new RateLimitError('Failed to grant the coupon: the mutations rate limit was exhausted and the server asks for a 200 s wait, more than maxRateLimitWaitMs.', {
      operation: 'grantCoupon',
      operationType: 'mutations',
      limit: 200,
      retryAfterMs: 200_000,
      resetAt: undefined,
    });
    const list = new ProblemList(10);
    list.add({ outcome: 'failed', index: 0, row: { line: 2, email: 'a@x.example' } as GrantOutcome['row'], member: { email: 'a@x.example' }, sent: true, error: { name: 'RateLimitError', message: cause.message, cause } });
    expect(list.lines()).toEqual([
      "  line 2: failed (RateLimitError): Failed to get past the server's mutation rate limit (200 per window): it stayed exhausted and the server asks to wait 3m 20s. Another client may be using the same key; run the command again in 3m 20s.",
    ]);
  });
});
