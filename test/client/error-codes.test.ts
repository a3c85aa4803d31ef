import { describe, expect, it } from 'vitest';
import { AdminClient, CodedError, ERROR_CODES, hasCode } from '../../src/index.js';
import { useScriptedAdminApi, testClient } from '../support/scripted-admin-api.js';

const api = useScriptedAdminApi();

const start = 1_800_000_000;

/**
 * Every operation with the coded errors the spec's Errors table lists for it (GENERAL-001 applies
 * to all), and a valid call of the SDK method.
 */
const operations: { field: string; codes: string[]; call: (admin: AdminClient) => Promise<unknown> }[] = [
  { field: 'createConsultingService', codes: ['CONSULTING-002', 'CONSULTING-003', 'CONSULTING-005', 'CONSULTING-006'], call: (a) => a.createConsultingService({ name: 'Hours', courseId: 'c-1', slug: 'hours' }) },
  { field: 'updateConsultingService', codes: ['CONSULTING-001', 'CONSULTING-003', 'CONSULTING-005', 'CONSULTING-006'], call: (a) => a.updateConsultingService('svc-1', { name: 'New' }) },
  { field: 'deleteConsultingService', codes: ['CONSULTING-001', 'CONSULTING-004'], call: (a) => a.deleteConsultingService('svc-1') },
  { field: 'bulkCreateConsultingMeetings', codes: ['CONSULTING-001', 'MEETING-010'], call: (a) => a.bulkCreateMeetings('svc-1', [{ startedAt: start, endedAt: start + 3600 }]) },
  { field: 'updateConsultingMeeting', codes: ['MEETING-001', 'MEETING-003', 'MEETING-007', 'MEETING-008', 'MEETING-009', 'MEETING-011', 'MEETING-012'], call: (a) => a.updateMeeting('m-1', { title: 'x' }) },
  { field: 'cancelConsultingMeeting', codes: ['MEETING-001', 'MEETING-007'], call: (a) => a.cancelMeeting('m-1') },
  { field: 'bulkCancelConsultingMeetings', codes: ['MEETING-010'], call: (a) => a.bulkCancelMeetings(['m-1']) },
  { field: 'enrollStudentToConsultingMeeting', codes: ['MEETING-001', 'MEETING-004', 'MEETING-007', 'ENROLLMENT-001', 'ENROLLMENT-002', 'ENROLLMENT-005', 'ENROLLMENT-006', 'ENROLLMENT-007'], call: (a) => a.enrollStudent('m-1', { email: 'ada@example.com' }) },
  { field: 'removeStudentFromConsultingMeeting', codes: ['MEETING-001', 'MEETING-006', 'MEETING-007'], call: (a) => a.removeStudent('m-1', 'user-1') },
  { field: 'rescheduleStudentConsultingMeeting', codes: ['MEETING-001', 'MEETING-004', 'MEETING-006', 'MEETING-007', 'MEETING-019', 'MEETING-020'], call: (a) => a.rescheduleStudent({ userId: 'user-1', fromMeetingId: 'm-1', toMeetingId: 'm-2' }) },
  { field: 'rateConsultingMeeting', codes: ['MEETING-001', 'MEETING-006', 'MEETING-007', 'MEETING-013', 'MEETING-014', 'MEETING-015', 'MEETING-016', 'MEETING-017', 'MEETING-018', 'ENROLLMENT-001', 'ENROLLMENT-002'], call: (a) => a.rateMeeting('m-1', { userId: 'user-1' }, { score: 8 }) },
  { field: 'createCoupon', codes: ['COUPON-002'], call: (a) => a.createCoupon({ name: 'VIP', couponType: 'percentage', amount: 20 }) },
  { field: 'updateCoupon', codes: ['COUPON-001', 'COUPON-002'], call: (a) => a.updateCoupon('c-1', { name: 'VIP' }) },
  { field: 'createCouponGrant', codes: ['COUPON-001', 'COUPON-003', 'COUPON-005', 'COUPON-006', 'ENROLLMENT-002'], call: (a) => a.grantCoupon('c-1', { email: 'ada@example.com' }) },
  { field: 'revokeCouponGrant', codes: ['COUPON-004'], call: (a) => a.revokeCouponGrant('grant-1') },
];

describe('coded errors in the top-level errors array become CodedError', () => {
  for (const { field, codes, call } of operations) {
    describe(field, () => {
      it.each([...codes, 'GENERAL-001'])('%s surfaces as CodedError with that code, its details and path', async (code) => {
        api.coded(field, code, `server says ${code}`, { hint: 'from server' });
        const error = await call(testClient()).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(CodedError);
        expect(error).toMatchObject({ code, local: false, path: [field], details: { hint: 'from server' }, serverMessage: `server says ${code}` });
        expect(hasCode(error, code)).toBe(true);
        expect((error as CodedError).message).toContain(code);
        // Coded errors are never retried.
        expect(api.requests).toHaveLength(1);
      });
    });
  }
});

describe('the error-code table', () => {
  it('documents every code the spec lists, each with a meaning and a remedy', () => {
    const listed = new Set(operations.flatMap((operation) => operation.codes).concat('GENERAL-001'));
    expect(new Set(Object.keys(ERROR_CODES))).toEqual(listed);
    for (const info of Object.values(ERROR_CODES)) {
      expect(info.meaning.length).toBeGreaterThan(10);
      expect(info.remedy.length).toBeGreaterThan(10);
    }
  });

  it('an undocumented code is still a CodedError, with the server text in its message', async () => {
    api.coded('revokeCouponGrant', 'COUPON-999', 'a new kind of failure');
    const error = await testClient().revokeCouponGrant('grant-1').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'CodedError', code: 'COUPON-999' });
    expect((error as Error).message).toContain('a new kind of failure');
  });
});

describe('valid_options= hints in coded errors', () => {
  it('parses the listed values', async () => {
    api.coded('updateConsultingMeeting', 'MEETING-012', 'MEETING-012: hostUserId is not the owner or a TA valid_options=u-1,u-2,u-3');
    const error = (await testClient().updateMeeting('m-1', { hostUserId: 'x' }).catch((caught: unknown) => caught)) as CodedError;
    expect(error.validOptions).toEqual(['u-1', 'u-2', 'u-3']);
    expect(error.validOptionsTruncated).toBe(false);
  });

  it('sets validOptionsTruncated when the message ends with the truncation text', async () => {
    const values = Array.from({ length: 20 }, (_, index) => `host${index}@school.test`);
    api.coded(
      'updateConsultingMeeting',
      'MEETING-011',
      `MEETING-011: host email not among licences valid_options=${values.join(',')} (truncated; call meetingHosts / videoHosts for the full list)`,
    );
    const error = (await testClient().updateMeeting('m-1', { hostEmail: 'x@y.z' }).catch((caught: unknown) => caught)) as CodedError;
    expect(error.validOptions).toEqual(values);
    expect(error.validOptionsTruncated).toBe(true);
  });
});
