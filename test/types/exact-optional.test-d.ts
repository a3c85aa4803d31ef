/*
 * Options and inputs under `exactOptionalPropertyTypes`: an optional property accepts an explicit
 * `undefined` (meaning "not given"), so a caller can pass on a value that may be undefined
 * (`timeoutMs: config.timeoutMs`) without spreading conditionally. Compiled twice: by the project's
 * tsc like every type test, and with the flag on by test/types/tsconfig.exact-optional.json
 * (`npm run typecheck` and `npm test` run both). Callbacks accept any return value.
 */
import { describe, expectTypeOf, it } from 'vitest';
import {
  AdminClient,
  type AdminClientOptions,
  type AnswerInput,
  type BulkOptions,
  type CallOptions,
  type ClientOverrides,
  type ConsultingServiceInput,
  type ConsultingServiceUpdateInput,
  type CouponInput,
  type CouponUpdateInput,
  type EnrollTarget,
  type GrantMemberRow,
  type GrantOutcome,
  type GrantToManyOptions,
  type MeetingRowInput,
  type MeetingUpdateInput,
  type MemberRef,
  type PacingOptions,
  type RatingInput,
  type RequestOptions,
  type WaitingEvent,
} from '../../src/index.js';
import { localTimeToUnix, weeklySlots, type LocalTimeToUnixOptions, type SlotRowTemplate, type WeeklySlotsOptions } from '../../src/scheduling/index.js';
import type { AuthOptions, LatencyOptions, MockServerOptions, RateLimits, SimulatorOptions } from '../../src/testing/index.js';
import type { PaymentPaidMatcherOptions } from '../../src/webhooks/index.js';

type OptionalKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? K : never }[keyof T];
/**
 * The optional keys of `T` (each member of a union) that refuse an explicit `undefined`; `never`
 * when all accept it. Written as an assignability test, so it holds with and without the flag.
 */
type RefusingUndefined<T> = T extends object ? { [K in OptionalKeys<T>]-?: { [P in K]: undefined } extends Pick<T, K> ? never : K }[OptionalKeys<T>] : never;

declare const admin: AdminClient;
declare const maybe: { number: number | undefined; text: string | undefined; signal: AbortSignal | undefined; flag: boolean | undefined };

describe('every optional option accepts undefined (exactOptionalPropertyTypes)', () => {
  it('the client, its pacing, derived clients and calls', () => {
    expectTypeOf<RefusingUndefined<AdminClientOptions>>().toBeNever();
    expectTypeOf<RefusingUndefined<PacingOptions>>().toBeNever();
    expectTypeOf<RefusingUndefined<NonNullable<PacingOptions['mutations']>>>().toBeNever();
    expectTypeOf<RefusingUndefined<ClientOverrides>>().toBeNever();
    expectTypeOf<RefusingUndefined<CallOptions>>().toBeNever();
    expectTypeOf<RefusingUndefined<BulkOptions>>().toBeNever();
    expectTypeOf<RefusingUndefined<RequestOptions>>().toBeNever();
    expectTypeOf<RefusingUndefined<GrantToManyOptions>>().toBeNever();
  });

  it('the inputs of the methods', () => {
    expectTypeOf<RefusingUndefined<ConsultingServiceInput>>().toBeNever();
    expectTypeOf<RefusingUndefined<ConsultingServiceUpdateInput>>().toBeNever();
    expectTypeOf<RefusingUndefined<MeetingRowInput>>().toBeNever();
    expectTypeOf<RefusingUndefined<MeetingUpdateInput>>().toBeNever();
    expectTypeOf<RefusingUndefined<CouponInput>>().toBeNever();
    expectTypeOf<RefusingUndefined<CouponUpdateInput>>().toBeNever();
    expectTypeOf<RefusingUndefined<AnswerInput>>().toBeNever();
    expectTypeOf<RefusingUndefined<RatingInput>>().toBeNever();
    expectTypeOf<RefusingUndefined<MemberRef>>().toBeNever();
    expectTypeOf<RefusingUndefined<EnrollTarget>>().toBeNever();
    expectTypeOf<RefusingUndefined<GrantMemberRow>>().toBeNever();
  });

  it('the options of the other entry points', () => {
    expectTypeOf<RefusingUndefined<LocalTimeToUnixOptions>>().toBeNever();
    expectTypeOf<RefusingUndefined<WeeklySlotsOptions>>().toBeNever();
    expectTypeOf<RefusingUndefined<SlotRowTemplate>>().toBeNever();
    expectTypeOf<RefusingUndefined<SimulatorOptions>>().toBeNever();
    expectTypeOf<RefusingUndefined<RateLimits>>().toBeNever();
    expectTypeOf<RefusingUndefined<LatencyOptions>>().toBeNever();
    expectTypeOf<RefusingUndefined<AuthOptions>>().toBeNever();
    expectTypeOf<RefusingUndefined<MockServerOptions>>().toBeNever();
    expectTypeOf<RefusingUndefined<PaymentPaidMatcherOptions>>().toBeNever();
    expectTypeOf<RefusingUndefined<NonNullable<PaymentPaidMatcherOptions['accessors']>>>().toBeNever();
  });

  it('the check itself finds a property that refuses undefined', () => {
    expectTypeOf<RefusingUndefined<{ strict?: number; loose?: number | undefined }>>().toEqualTypeOf<
      // Without the flag every optional property accepts undefined, so nothing refuses.
      {} extends { strict?: number } ? ({ strict: undefined } extends { strict?: number } ? never : 'strict') : never
    >();
  });
});

describe('values that may be undefined are passed on as they are', () => {
  it('compiles where the caller forwards its own optional settings', async () => {
    new AdminClient({ apiKey: maybe.text, baseUrl: maybe.text, timeoutMs: maybe.number, limits: { leaseMs: maybe.number, mutations: { limit: maybe.number } }, logger: undefined });
    admin.withOptions({ timeoutMs: maybe.number, priority: undefined });
    await admin.grantCoupon('coupon', { email: 'ada@example.com', userId: undefined }, { signal: maybe.signal, timeoutMs: maybe.number });
    await admin.bulkCancelMeetings(['m1'], { atomic: maybe.flag });
    await admin.createCoupon({ name: 'VIP', couponType: 'percentage', amount: 20, description: maybe.text, expiredAt: maybe.number });
    await admin.grantCouponToMany('coupon', [{ email: 'ada@example.com' }], { journal: maybe.text, concurrency: maybe.number, signal: maybe.signal });
    localTimeToUnix({ date: '2027-03-28', time: '10:00' }, 'Europe/Berlin', { repeated: undefined });
    weeklySlots({ timeZone: 'UTC', from: '2027-01-04', to: '2027-01-10', days: ['mon'], start: '10:00', end: '11:00', row: undefined });
  });
});

describe('callbacks accept any return value', () => {
  it('onOutcome and onProgress may return what an expression gives; event listeners too', async () => {
    const outcomes: GrantOutcome[] = [];
    const waits: WaitingEvent[] = [];
    await admin.grantCouponToMany('coupon', [{ email: 'ada@example.com' }], { onOutcome: (o) => outcomes.push(o), onProgress: (p) => p.done });
    admin.on('waiting', (event) => waits.push(event));
    admin.on('retry', async () => undefined);
    expectTypeOf<NonNullable<GrantToManyOptions['onOutcome']>>().returns.toBeUnknown();
  });
});
