import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient, type GrantOutcome } from '../../src/index.js';
import { createSimulator, DEMO_API_KEY, DEMO_IDS, demoMemberEmail, seedDemoSchool } from '../../src/testing/index.js';
import { simulatorHandlers } from '../../src/testing/msw.js';
import { listenOptions } from '../support/msw-listen.js';

/*
 * The types let every optional option and input be given as `undefined` (for callers compiling
 * with exactOptionalPropertyTypes: test/types/exact-optional.test-d.ts); at run time `undefined`
 * must then mean "not given": the default applies, and an input field is not sent.
 */

const BASE = 'https://undefined-options.test';
const simulator = createSimulator();
seedDemoSchool(simulator);
const server = setupServer(...simulatorHandlers(simulator, BASE));
beforeAll(() => server.listen(listenOptions('error')));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const maybe = <T>(value: T | undefined = undefined): T | undefined => value;

describe('an option given as undefined means "not given"', () => {
  it('client options, pacing and derived clients take their defaults', async () => {
    const admin = new AdminClient({
      apiKey: DEMO_API_KEY,
      baseUrl: BASE,
      timeoutMs: maybe<number>(),
      maxRetries: maybe<number>(),
      headers: maybe<Record<string, string>>(),
      priority: maybe<'interactive'>(),
      logger: undefined,
      limits: { leaseMs: maybe<number>(), store: undefined, mutations: { limit: maybe<number>(), windowMs: maybe<number>() } },
    });
    const derived = admin.withOptions({ timeoutMs: maybe<number>(), bulkChunkSize: maybe<number>() });
    const { data, response } = await derived.createCoupon({ name: 'Spring', couponType: 'fixed_amount', amount: 10 }, { timeoutMs: maybe<number>(), signal: maybe<AbortSignal>(), headers: maybe<Record<string, string>>() }).withResponse();
    expect(data.name).toBe('Spring');
    expect(response.attempt).toBe(1);
  });

  it('an input field given as undefined is not sent (the server keeps its default)', async () => {
    const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: BASE });
    const coupon = await admin.createCoupon({ name: 'Autumn', couponType: 'percentage', amount: 15, description: maybe<string>(), expiredAt: maybe<number>(), restricted: maybe<boolean>() });
    expect({ expiredAt: coupon.expiredAt, restricted: coupon.restricted }).toEqual({ expiredAt: null, restricted: false });
    const { created } = await admin.grantCoupon(DEMO_IDS.restrictedCouponId, { email: demoMemberEmail(3), userId: undefined });
    expect(created).toBe(true);
  });

  it('grantCouponToMany options as undefined, and an onOutcome that returns a value', async () => {
    const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: BASE });
    const outcomes: GrantOutcome[] = [];
    const summary = await admin.grantCouponToMany(DEMO_IDS.restrictedCouponId, [{ email: demoMemberEmail(4) }, { email: demoMemberEmail(5) }], {
      journal: maybe<string>(),
      concurrency: maybe<number>(),
      signal: maybe<AbortSignal>(),
      onOutcome: (outcome) => outcomes.push(outcome),
    });
    expect(summary.counts.created).toBe(2);
    expect(outcomes.map((outcome) => outcome.outcome)).toEqual(['created', 'created']);
  });
});

describe('event listeners may return anything', () => {
  it('a listener\'s rejected promise neither breaks the call nor escapes as an unhandled rejection', async () => {
    const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: BASE });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    try {
      admin.on('request', async () => {
        throw new Error('listener bug');
      });
      await expect(admin.request('query { __typename }')).resolves.toEqual({ __typename: 'Query' });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
