import { AdminClient, OPERATIONS, type AdminClientOptions, type OperationName } from '../../../src/index.js';
import { API_KEY } from '../../support/scripted-admin-api.js';
import { attendeeRating, coupon, grant, meeting, service, subscription } from '../../support/fixtures.js';
import type { FaultAction, FaultServer } from './fault-server.js';
import type { RawRequest } from './raw-http.js';

/** One documented mutation: how to call it through the SDK and the `data` of a successful answer. */
export interface OperationCase {
  field: OperationName;
  /** The SDK method that sends it. */
  method: string;
  retry: 'idempotent' | 'unsafe';
  call: (admin: AdminClient) => Promise<unknown>;
  data: Record<string, unknown>;
}

const member = { id: 'user-1', name: 'Ada Lovelace', email: 'ada@example.com' };
const bulk = { allSucceeded: true, errors: null, results: [{ meeting: meeting(), errors: null }] };

const CALLS: Record<OperationName, [method: string, call: (admin: AdminClient) => Promise<unknown>, payload: Record<string, unknown>]> = {
  updateSubscription: ['updateSubscriptionPeriod', (a) => a.updateSubscriptionPeriod('sub-1', 1_800_000_000), { errors: [], subscription: subscription() }],
  createConsultingService: ['createConsultingService', (a) => a.createConsultingService({ name: 'Office hours', courseId: 'course-1' }), { errors: null, consultingService: service() }],
  updateConsultingService: ['updateConsultingService', (a) => a.updateConsultingService('svc-1', { published: true }), { errors: null, consultingService: service() }],
  deleteConsultingService: ['deleteConsultingService', (a) => a.deleteConsultingService('svc-1'), { errors: null, consultingService: service({ discardedAt: 1_790_000_100 }) }],
  bulkCreateConsultingMeetings: ['bulkCreateMeetings', (a) => a.bulkCreateMeetings('svc-1', [{ startedAt: 1_800_000_000, endedAt: 1_800_003_600 }]), bulk],
  updateConsultingMeeting: ['updateMeeting', (a) => a.updateMeeting('m-1', { title: 'Office hours' }), { errors: null, meeting: meeting() }],
  cancelConsultingMeeting: ['cancelMeeting', (a) => a.cancelMeeting('m-1'), { errors: null, meeting: meeting({ state: 'canceled' }) }],
  bulkCancelConsultingMeetings: ['bulkCancelMeetings', (a) => a.bulkCancelMeetings(['m-1']), bulk],
  enrollStudentToConsultingMeeting: ['enrollStudent', (a) => a.enrollStudent('m-1', { userId: 'user-1' }), { errors: null, meeting: meeting({ state: 'scheduled' }), user: member }],
  removeStudentFromConsultingMeeting: ['removeStudent', (a) => a.removeStudent('m-1', 'user-1'), { errors: null, meeting: meeting() }],
  rescheduleStudentConsultingMeeting: [
    'rescheduleStudent',
    (a) => a.rescheduleStudent({ userId: 'user-1', fromMeetingId: 'm-1', toMeetingId: 'm-2' }),
    { errors: null, fromMeeting: meeting(), toMeeting: meeting({ id: 'm-2', state: 'scheduled' }) },
  ],
  rateConsultingMeeting: ['rateMeeting', (a) => a.rateMeeting('m-1', { userId: 'user-1' }, { score: 8.5 }), { errors: null, attendeeRating: attendeeRating() }],
  createCoupon: ['createCoupon', (a) => a.createCoupon({ name: 'VIP', couponType: 'percentage', amount: 20 }), { errors: null, coupon: coupon() }],
  updateCoupon: ['updateCoupon', (a) => a.updateCoupon('c-1', { active: false }), { errors: null, coupon: coupon({ active: false }) }],
  createCouponGrant: ['grantCoupon', (a) => a.grantCoupon('c-1', { userId: 'user-1' }), { errors: null, created: true, grant: grant() }],
  revokeCouponGrant: ['revokeCouponGrant', (a) => a.revokeCouponGrant('grant-1'), { errors: null, grant: grant({ status: 'revoked', revokedAt: 1_790_000_100 }) }],
};

/** Every documented mutation, with its retry class from the operations table. */
export const OPERATION_CASES: readonly OperationCase[] = (Object.keys(CALLS) as OperationName[]).map((field) => {
  const [method, call, payload] = CALLS[field];
  return { field, method, retry: OPERATIONS[field].retry, call, data: { [field]: payload } };
});

/** The mutations that must never be sent twice once they may have reached the server. */
export const UNSAFE_CASES = OPERATION_CASES.filter((item) => item.retry === 'unsafe');
/** The mutations the client may repeat (idempotent, convergent or upserts). */
export const IDEMPOTENT_CASES = OPERATION_CASES.filter((item) => item.retry === 'idempotent');

/** The case of one field (throws for an unknown one, so a typo cannot make a test vacuous). */
export function operationCase(field: OperationName): OperationCase {
  const found = OPERATION_CASES.find((item) => item.field === field);
  if (found === undefined) throw new Error(`no operation case for ${field}`);
  return found;
}

/** A complete JSON response. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): FaultAction {
  return { kind: 'respond', status, headers, body: JSON.stringify(body) };
}

/** Answers any documented mutation with its success payload (`{ __typename }` for other documents). */
export const answerOk = (request: RawRequest): FaultAction => {
  const field = request.fields[0];
  const known = OPERATION_CASES.find((item) => item.field === field);
  return json({ data: known?.data ?? { __typename: 'Query' } });
};

/** A client of the fault server: no pacing, short timeout, fast retries (tests override what they need). */
export function faultClient(server: FaultServer, options: Partial<AdminClientOptions> = {}): AdminClient {
  return new AdminClient({ apiKey: API_KEY, baseUrl: server.url, limits: false, timeoutMs: 400, maxRetries: 2, retryBaseDelayMs: 1, maxRetryDelayMs: 5, ...options });
}

/** Runs `call` and returns what it threw (or fails the test if it resolved), with the elapsed time. */
export async function failureOf(call: () => Promise<unknown>): Promise<{ error: unknown; elapsedMs: number }> {
  const started = performance.now();
  try {
    await call();
  } catch (error) {
    return { error, elapsedMs: performance.now() - started };
  }
  throw new Error('expected the call to fail, it resolved');
}
