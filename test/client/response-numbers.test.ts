import { describe, expect, it } from 'vitest';
import { InvalidResponseError, type AdminClient } from '../../src/index.js';
import { coupon, meeting, subscription } from '../support/fixtures.js';
import { fixedAnswerClient } from '../support/fixed-answer-client.js';

/** A client whose fetch answers every request with `text`, counting requests (retries allowed: none may happen). */
function answering(text: string): { admin: AdminClient; sent: () => number } {
  const { admin, requests } = fixedAnswerClient(text, { maxRetries: 3 });
  return { admin, sent: () => requests.length };
}

/** JSON text of `value` with the string marker `"@@"` replaced by raw number text (JSON.stringify cannot write 1e400). */
const withRaw = (value: unknown, raw: string): string => JSON.stringify(value).replace('"@@"', raw);

describe('response integers that are not safe integers never reach the caller (InvalidResponseError "invalid_number")', () => {
  // Regression: normalizeIntegers turned a timestamp sent as a 400-digit string into Infinity, and
  // JSON.parse turns 1e400 into Infinity: both reached the caller as if they were timestamps.
  it.each([
    ['a timestamp sent as a 400-digit string', 'updateSubscriptionPeriod', withRaw({ data: { updateSubscription: { errors: [], subscription: subscription({ currentPeriodEnd: '9'.repeat(400) }) } } }, '0'), (a: AdminClient) => a.updateSubscriptionPeriod('sub-1', 1_800_000_000)],
    ['an Int field of 1e400 (JSON.parse gives Infinity)', 'bulkCreateMeetings', withRaw({ data: { bulkCreateConsultingMeetings: { allSucceeded: true, errors: null, results: [{ meeting: meeting({ maxAttendeeCapacity: '@@' }), errors: null }] } } }, '1e400'), (a: AdminClient) => a.bulkCreateMeetings('svc-1', [{ startedAt: 1_800_000_000, endedAt: 1_800_003_600 }])],
    ['a BigInt field sent as digits beyond 2^53 (would lose precision)', 'createCoupon', withRaw({ data: { createCoupon: { errors: null, coupon: coupon({ expiredAt: '9007199254740993' }) } } }, '0'), (a: AdminClient) => a.createCoupon({ name: 'VIP', couponType: 'percentage', amount: 20 })],
    ['a BigInt field sent as a number beyond 2^53', 'createCoupon', withRaw({ data: { createCoupon: { errors: null, coupon: coupon({ startedAt: '@@' }) } } }, '9007199254740993'), (a: AdminClient) => a.createCoupon({ name: 'VIP', couponType: 'percentage', amount: 20 })],
    ['a Float field of -1e400', 'createCoupon', withRaw({ data: { createCoupon: { errors: null, coupon: coupon({ amount: '@@' }) } } }, '-1e400'), (a: AdminClient) => a.createCoupon({ name: 'VIP', couponType: 'percentage', amount: 20 })],
    ['a number of 1e400 in the data of request()', 'request', withRaw({ data: { stats: { total: '@@' } } }, '1e400'), (a: AdminClient) => a.request('query { stats { total } }')],
  ])('%s: InvalidResponseError naming the field, sent once', async (_case, operation, text, call) => {
    const { admin, sent } = answering(text);
    const error = await call(admin).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ problem: 'invalid_number', operation });
    expect((error as Error).message).toMatch(/ran/);
    expect(sent()).toBe(1);
  });

  it('integers sent as safe strings of digits become numbers; Floats stay as sent', async () => {
    const text = JSON.stringify({ data: { createCoupon: { errors: null, coupon: coupon({ startedAt: '1800000000', expiredAt: '9007199254740991', amount: 12.5 }) } } });
    const result = await answering(text).admin.createCoupon({ name: 'VIP', couponType: 'percentage', amount: 20 });
    expect(result).toMatchObject({ startedAt: 1_800_000_000, expiredAt: 9_007_199_254_740_991, amount: 12.5 });
  });

  it('a "__proto__" key in the answer stays a plain property (it does not replace the prototype)', async () => {
    const text = '{"data":{"createCoupon":{"errors":null,"coupon":{"id":"c","name":"VIP","code":"VIP20","couponType":"percentage","amount":20,"active":true,"restricted":false,"oncePerUser":false,"__proto__":{"startedAt":"5"},"startedAt":"1800000000"}}}}';
    const result = (await answering(text).admin.createCoupon({ name: 'VIP', couponType: 'percentage', amount: 20 })) as unknown as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(result.startedAt).toBe(1_800_000_000);
  });
});
