import { AdminClient, OPERATIONS, type AdminClientOptions, type CallOptions, type OperationName } from '../../../src/index.js';
import { API_KEY } from '../../support/scripted-admin-api.js';
import { attendeeRating, coupon, grant, meeting, service, subscription } from '../../support/fixtures.js';
import type { FaultAction, FaultServer } from './fault-server.js';
import type { RawHeaders, RawRequest } from './raw-http.js';

/** One documented mutation: how to call it through the SDK and the `data` of a successful answer. */
export interface OperationCase {
  field: OperationName;
  /** The SDK method that sends it. */
  method: string;
  retry: 'idempotent' | 'unsafe';
  /** Calls the method, with per-call options when given. */
  call: (admin: AdminClient, options?: CallOptions) => Promise<unknown>;
  data: Record<string, unknown>;
}

const member = { id: 'user-1', name: 'Ada Lovelace', email: 'ada@example.com' };
const bulk = { allSucceeded: true, errors: null, results: [{ meeting: meeting(), errors: null }] };

const CALLS: Record<OperationName, [method: string, call: (admin: AdminClient, options?: CallOptions) => Promise<unknown>, payload: Record<string, unknown>]> = {
  updateSubscription: ['updateSubscriptionPeriod', (a, o) => a.updateSubscriptionPeriod('sub-1', 1_800_000_000, o), { errors: [], subscription: subscription() }],
  createConsultingService: ['createConsultingService', (a, o) => a.createConsultingService({ name: 'Office hours', courseId: 'course-1' }, o), { errors: null, consultingService: service() }],
  updateConsultingService: ['updateConsultingService', (a, o) => a.updateConsultingService('svc-1', { published: true }, o), { errors: null, consultingService: service() }],
  deleteConsultingService: ['deleteConsultingService', (a, o) => a.deleteConsultingService('svc-1', o), { errors: null, consultingService: service({ discardedAt: 1_790_000_100 }) }],
  bulkCreateConsultingMeetings: ['bulkCreateMeetings', (a, o) => a.bulkCreateMeetings('svc-1', [{ startedAt: 1_800_000_000, endedAt: 1_800_003_600 }], o), bulk],
  updateConsultingMeeting: ['updateMeeting', (a, o) => a.updateMeeting('m-1', { title: 'Office hours' }, o), { errors: null, meeting: meeting() }],
  cancelConsultingMeeting: ['cancelMeeting', (a, o) => a.cancelMeeting('m-1', o), { errors: null, meeting: meeting({ state: 'canceled' }) }],
  bulkCancelConsultingMeetings: ['bulkCancelMeetings', (a, o) => a.bulkCancelMeetings(['m-1'], o), bulk],
  enrollStudentToConsultingMeeting: ['enrollStudent', (a, o) => a.enrollStudent('m-1', { userId: 'user-1' }, o), { errors: null, meeting: meeting({ state: 'scheduled' }), user: member }],
  removeStudentFromConsultingMeeting: ['removeStudent', (a, o) => a.removeStudent('m-1', 'user-1', o), { errors: null, meeting: meeting() }],
  rescheduleStudentConsultingMeeting: [
    'rescheduleStudent',
    (a, o) => a.rescheduleStudent({ userId: 'user-1', fromMeetingId: 'm-1', toMeetingId: 'm-2' }, o),
    { errors: null, fromMeeting: meeting(), toMeeting: meeting({ id: 'm-2', state: 'scheduled' }) },
  ],
  rateConsultingMeeting: ['rateMeeting', (a, o) => a.rateMeeting('m-1', { userId: 'user-1' }, { score: 8.5 }, o), { errors: null, attendeeRating: attendeeRating() }],
  createCoupon: ['createCoupon', (a, o) => a.createCoupon({ name: 'VIP', couponType: 'percentage', amount: 20 }, o), { errors: null, coupon: coupon() }],
  updateCoupon: ['updateCoupon', (a, o) => a.updateCoupon('c-1', { active: false }, o), { errors: null, coupon: coupon({ active: false }) }],
  createCouponGrant: ['grantCoupon', (a, o) => a.grantCoupon('c-1', { userId: 'user-1' }, o), { errors: null, created: true, grant: grant() }],
  revokeCouponGrant: ['revokeCouponGrant', (a, o) => a.revokeCouponGrant('grant-1', o), { errors: null, grant: grant({ status: 'revoked', revokedAt: 1_790_000_100 }) }],
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
export function json(body: unknown, status = 200, headers: RawHeaders = {}): FaultAction {
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
