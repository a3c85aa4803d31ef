import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OPERATIONS, type AdminClient, type OperationName } from '../../src/index.js';
import { answerOk, faultClient } from './support/operation-cases.js';
import type { RawRequest } from './support/raw-http.js';
import { useFaultServer } from './support/use-fault-server.js';

const server = useFaultServer((started) => started.script(answerOk));

/** Strings that would change a document if they were ever spliced into it. */
const HOSTILE = [
  '"}) { __typename } } mutation Evil { deleteConsultingService(id: "svc-1") { errors } } #',
  '${process.env.ADMIN_API_KEY} $input $email',
  'line one\nline two\r\n\u2028\u2029end',
  '\\"escaped\\" \\\\ back\\slash',
  '{ "json": { "nested": [1, 2] } }',
  "'single' `backtick` #hash",
  '\u0000nul\u0007bell\u001b[31mred',
  '🎓 Ünïcödé ✓ \uD800 lone surrogate',
] as const;

function lastRequest(): RawRequest {
  const request = server.log.at(-1)?.request;
  if (request === undefined) throw new Error('no request was read');
  return request;
}

/** Sends one call and checks the wire: the document is the table's, byte for byte; the values arrive as variables, intact. */
async function expectSentAsVariables(field: OperationName, call: () => Promise<unknown>, variables: Record<string, unknown>): Promise<void> {
  await call();
  const request = lastRequest();
  expect(request.query).toBe(OPERATIONS[field].document);
  expect(request.variables).toEqual(variables);
  expect(request.headers['content-type']).toMatch(/^application\/json/);
}

const at = 1_800_000_000;
const CALLS: [OperationName, (admin: AdminClient, h: string) => Promise<unknown>, (h: string) => Record<string, unknown>][] = [
  ['createCouponGrant', (a, h) => a.grantCoupon(h, { email: h }), (h) => ({ couponId: h, email: h })],
  ['createCoupon', (a, h) => a.createCoupon({ name: h, couponType: 'percentage', amount: 10, code: h, description: h }), (h) => ({ input: { name: h, couponType: 'percentage', amount: 10, code: h, description: h } })],
  ['updateCoupon', (a, h) => a.updateCoupon(h, { name: h, description: h }), (h) => ({ id: h, input: { name: h, description: h } })],
  ['rateConsultingMeeting', (a, h) => a.rateMeeting(h, { email: h }, { score: 8, comment: h }), (h) => ({ meetingId: h, email: h, score: 8, comment: h })],
  ['enrollStudentToConsultingMeeting', (a, h) => a.enrollStudent(h, { email: h, name: h }), (h) => ({ meetingId: h, email: h, name: h })],
  ['createConsultingService', (a, h) => a.createConsultingService({ name: h, courseId: h, description: h, tags: [h] }), (h) => ({ input: { name: h, courseId: h, description: h, tags: [h] } })],
  ['updateConsultingService', (a, h) => a.updateConsultingService(h, { description: h, tags: [h, h] }), (h) => ({ id: h, input: { description: h, tags: [h, h] } })],
  [
    'bulkCreateConsultingMeetings',
    (a, h) => a.bulkCreateMeetings(h, [{ startedAt: at, endedAt: at + 3600, title: h, description: h, hostingType: 'custom' as never, joinUrl: h }]),
    (h) => ({ serviceId: h, inputs: [{ startedAt: at, endedAt: at + 3600, title: h, description: h, hostingType: 'custom', joinUrl: h }] }),
  ],
  ['updateConsultingMeeting', (a, h) => a.updateMeeting(h, { title: h, description: h }), (h) => ({ id: h, input: { title: h, description: h } })],
  ['rescheduleStudentConsultingMeeting', (a, h) => a.rescheduleStudent({ userId: h, fromMeetingId: `${h}-from`, toMeetingId: `${h}-to` }), (h) => ({ userId: h, fromMeetingId: `${h}-from`, toMeetingId: `${h}-to` })],
  ['removeStudentFromConsultingMeeting', (a, h) => a.removeStudent(h, h), (h) => ({ meetingId: h, userId: h })],
  ['revokeCouponGrant', (a, h) => a.revokeCouponGrant(h), (h) => ({ grantId: h })],
];

describe('user-supplied strings are sent only as GraphQL variables: the document text never changes', () => {
  it.each(CALLS.flatMap(([field, call, variables]) => HOSTILE.map((hostile) => [field, JSON.stringify(hostile).slice(0, 40), field, call, variables, hostile] as const)))(
    '%s with %s',
    async (_label, _shown, field, call, variables, hostile) => {
      const admin = faultClient(server);
      await expectSentAsVariables(field, () => call(admin, hostile), variables(hostile));
    },
  );

  it('property: any string as email (grantCoupon), description (createCoupon) or comment (rateMeeting) leaves the document byte-identical and arrives intact', async () => {
    const admin = faultClient(server);
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 200 }), async (text) => {
        await expectSentAsVariables('createCouponGrant', () => admin.grantCoupon('c-1', { email: text }), { couponId: 'c-1', email: text });
        await expectSentAsVariables('createCoupon', () => admin.createCoupon({ name: 'n', couponType: 'fixed_amount', amount: 5, description: text }), {
          input: { name: 'n', couponType: 'fixed_amount', amount: 5, description: text },
        });
        await expectSentAsVariables('rateConsultingMeeting', () => admin.rateMeeting('m-1', { userId: 'u-1' }, { score: 1.5, comment: text }), {
          meetingId: 'm-1',
          userId: 'u-1',
          score: 1.5,
          comment: text,
        });
      }),
      { numRuns: 100 },
    );
  });

  it('request(document, variables): the caller\'s document is sent as given and hostile values only as variables', async () => {
    const document = 'query Grants($email: String) { couponGrants(userEmail: $email) { nodes { id } } }';
    const admin = faultClient(server);
    for (const hostile of HOSTILE) {
      await admin.request(document, { email: hostile });
      expect(lastRequest().query).toBe(document);
      expect(lastRequest().variables).toEqual({ email: hostile });
    }
  });
});
