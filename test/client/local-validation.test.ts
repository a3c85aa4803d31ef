import { afterEach, describe, expect, it } from 'vitest';
import { AdminClient, CodedError, InvalidInputError } from '../../src/index.js';
import { testClient, useScriptedAdminApi } from '../support/scripted-admin-api.js';

const api = useScriptedAdminApi();
// Registered after the API's own hooks, so it runs before they reset the request log.
afterEach(() => {
  // Every case here must be refused before sending anything.
  expect(api.requests).toHaveLength(0);
});

const start = 1_800_000_000;
const row = { startedAt: start, endedAt: start + 3600 };
type Call = (admin: AdminClient) => Promise<unknown>;

async function refusal(call: Call): Promise<unknown> {
  return call(testClient()).then(
    () => {
      throw new Error('expected a local refusal');
    },
    (error: unknown) => error,
  );
}

const codedCases: [rule: string, code: string, call: Call][] = [
  ['slug must match ^[a-z0-9-]+$ (create)', 'CONSULTING-003', (a) => a.createConsultingService({ name: 'Hours', courseId: 'c-1', slug: 'Office Hours' })],
  ['slug must match ^[a-z0-9-]+$ (update)', 'CONSULTING-003', (a) => a.updateConsultingService('svc-1', { slug: 'hours_2' })],
  ['atomic: true together with any videoconf row raises MEETING-010', 'MEETING-010', (a) => a.bulkCreateMeetings('svc-1', [row, { ...row, hostingType: 'videoconf' }], { atomic: true })],
  ['a row with hostingType custom requires joinUrl (MEETING-008)', 'MEETING-008', (a) => a.bulkCreateMeetings('svc-1', [row, { ...row, hostingType: 'custom' }])],
  ['score 0.5 to 10 in steps of 0.5: 0 is refused', 'MEETING-014', (a) => a.rateMeeting('m-1', { userId: 'u-1' }, { score: 0 })],
  ['score 0.5 to 10 in steps of 0.5: 10.5 is refused', 'MEETING-014', (a) => a.rateMeeting('m-1', { userId: 'u-1' }, { score: 10.5 })],
  ['score 0.5 to 10 in steps of 0.5: 7.25 is refused', 'MEETING-014', (a) => a.rateMeeting('m-1', { userId: 'u-1' }, { score: 7.25 })],
  ['score and answers together match no rating mode (MEETING-013)', 'MEETING-013', (a) => a.rateMeeting('m-1', { userId: 'u-1' }, { score: 8, answers: [{ fieldId: 'f', value: 'x' }] })],
  ['rate: both userId and email raises MEETING-016', 'MEETING-016', (a) => a.rateMeeting('m-1', { userId: 'u-1', email: 'a@b.co' } as never, { score: 8 })],
  ['rate: neither userId nor email raises ENROLLMENT-001', 'ENROLLMENT-001', (a) => a.rateMeeting('m-1', {} as never, { score: 8 })],
  ['enroll: neither userId nor email raises ENROLLMENT-001', 'ENROLLMENT-001', (a) => a.enrollStudent('m-1', {} as never)],
  ['grant: neither userId nor email raises COUPON-005', 'COUPON-005', (a) => a.grantCoupon('c-1', {} as never)],
  ['grant: both userId and email raises COUPON-006', 'COUPON-006', (a) => a.grantCoupon('c-1', { userId: 'u-1', email: 'a@b.co' } as never)],
  ['couponType other than fixed_amount or percentage raises COUPON-002 (create)', 'COUPON-002', (a) => a.createCoupon({ name: 'X', couponType: 'free' as never, amount: 1 })],
  ['couponType other than fixed_amount or percentage raises COUPON-002 (update)', 'COUPON-002', (a) => a.updateCoupon('c-1', { couponType: 'bogus' as never })],
  ['reschedule: source and target the same raises MEETING-019', 'MEETING-019', (a) => a.rescheduleStudent({ userId: 'u-1', fromMeetingId: 'm-1', toMeetingId: 'm-1' })],
];

describe('local validation throws CodedError with the server\'s code and local: true, sending nothing', () => {
  it.each(codedCases)('%s', async (_rule, code, call) => {
    const error = await refusal(call);
    expect(error).toBeInstanceOf(CodedError);
    expect(error).toMatchObject({ code, local: true });
    expect((error as Error).message).toContain('Nothing was sent');
  });

  it('names the failing row in details', async () => {
    const error = await refusal((a) => a.bulkCreateMeetings('svc-1', [row, row, { ...row, hostingType: 'custom', joinUrl: '' }]));
    expect(error).toMatchObject({ code: 'MEETING-008', details: { row: 2 } });
  });
});

const inputCases: [rule: string, field: string, call: Call][] = [
  ['percentage amount must be greater than 0', 'amount', (a) => a.createCoupon({ name: 'X', couponType: 'percentage', amount: 0 })],
  ['percentage amount at most 100', 'amount', (a) => a.createCoupon({ name: 'X', couponType: 'percentage', amount: 100.5 })],
  ['percentage amount bounds apply on update when type and amount are given', 'amount', (a) => a.updateCoupon('c-1', { couponType: 'percentage', amount: 150 })],
  ['expiredAt must be after startedAt (equal)', 'expiredAt', (a) => a.createCoupon({ name: 'X', couponType: 'fixed_amount', amount: 5, startedAt: start, expiredAt: start })],
  ['expiredAt must be after startedAt (Dates, update)', 'expiredAt', (a) => a.updateCoupon('c-1', { startedAt: new Date(start * 1000), expiredAt: new Date((start - 1) * 1000) })],
  ['ids must be non-empty strings', 'couponId', (a) => a.grantCoupon('', { userId: 'u-1' })],
  ['currentPeriodEnd must be whole seconds', 'currentPeriodEnd', (a) => a.updateSubscriptionPeriod('sub-1', 1.5)],
];

describe('inputs the server rejects without a code throw InvalidInputError locally', () => {
  it.each(inputCases)('%s', async (_rule, field, call) => {
    const error = await refusal(call);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ field, local: true });
  });
});

describe('valid edge values pass local validation', () => {
  it.each([0.5, 10, 7.5])('score %s is sent', async (score) => {
    api.data({ rateConsultingMeeting: { attendeeRating: null, errors: ['not enrolled'] } });
    await testClient().rateMeeting('m-1', { userId: 'u-1' }, { score }).catch(() => undefined);
    expect(api.requests).toHaveLength(1);
    api.reset();
  });

  it('percentage 100 and fixed_amount 0 are sent; a blank slug is sent (derived from the name)', async () => {
    api.data({ createCoupon: { coupon: null, errors: ['x'] }, createConsultingService: { consultingService: null, errors: ['x'] } });
    const admin = testClient();
    await admin.createCoupon({ name: 'X', couponType: 'percentage', amount: 100 }).catch(() => undefined);
    await admin.createCoupon({ name: 'X', couponType: 'fixed_amount', amount: 0 }).catch(() => undefined);
    await admin.createConsultingService({ name: 'Hours', courseId: 'c-1', slug: '' }).catch(() => undefined);
    expect(api.requests).toHaveLength(3);
    api.reset();
  });
});
