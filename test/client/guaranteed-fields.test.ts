import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidResponseError, type OperationName } from '../../src/index.js';
import { coupon, grant } from '../support/fixtures.js';
import { failureOf, faultClient, json, OPERATION_CASES, type OperationCase } from '../reliability/support/operation-cases.js';
import { useFaultServer } from '../reliability/support/use-fault-server.js';

/*
 * The spec's guarantees, written from the spec (not from the client's table): which fields of each
 * successful payload can never be null. A server that breaks one must make the call throw
 * InvalidResponseError (problem 'missing_guaranteed_field'); every other field may be null and the
 * call still resolves with that null.
 */
const MEETING = ['id', 'title', 'state', 'startedAt', 'endedAt', 'serviceId', 'hostUserId'];
const SERVICE = ['id', 'name', 'slug', 'published', 'courseId', 'effectiveTimezone'];
const COUPON = ['id', 'name', 'code', 'couponType', 'amount', 'active', 'restricted', 'oncePerUser'];
const GRANT = ['id', 'status', 'grantedAt'];
const under = (prefix: string, fields: string[]) => fields.map((field) => `${prefix}.${field}`);

const GUARANTEED: Record<OperationName, string[]> = {
  updateSubscription: [
    ...under('subscription', ['id', 'currentPeriodEnd', 'isCanceling', 'isCancellable', 'planId', 'state', 'plan', 'user']),
    'subscription.plan.id',
    'subscription.user.id',
  ],
  createConsultingService: under('consultingService', SERVICE),
  updateConsultingService: under('consultingService', SERVICE),
  deleteConsultingService: under('consultingService', [...SERVICE, 'discardedAt']),
  bulkCreateConsultingMeetings: under('results.0.meeting', MEETING),
  updateConsultingMeeting: under('meeting', MEETING),
  cancelConsultingMeeting: under('meeting', MEETING),
  bulkCancelConsultingMeetings: under('results.0.meeting', MEETING),
  enrollStudentToConsultingMeeting: [...under('meeting', MEETING), 'user', 'user.id'],
  removeStudentFromConsultingMeeting: under('meeting', MEETING),
  rescheduleStudentConsultingMeeting: [...under('fromMeeting', MEETING), 'fromMeeting', ...under('toMeeting', MEETING)],
  rateConsultingMeeting: ['attendeeRating.userId', 'attendeeRating.rate.score'],
  createCoupon: under('coupon', COUPON),
  updateCoupon: under('coupon', COUPON),
  createCouponGrant: [...under('grant', GRANT), 'created'],
  revokeCouponGrant: under('grant', [...GRANT, 'revokedAt']),
};

/** The payload's main object: null there is the documented failure convention (PayloadError / missing_payload), not this rule. */
const MAIN: Partial<Record<OperationName, string>> = {
  updateSubscription: 'subscription',
  createConsultingService: 'consultingService',
  updateConsultingService: 'consultingService',
  deleteConsultingService: 'consultingService',
  updateConsultingMeeting: 'meeting',
  cancelConsultingMeeting: 'meeting',
  enrollStudentToConsultingMeeting: 'meeting',
  removeStudentFromConsultingMeeting: 'meeting',
  rescheduleStudentConsultingMeeting: 'toMeeting',
  rateConsultingMeeting: 'attendeeRating',
  createCoupon: 'coupon',
  updateCoupon: 'coupon',
  createCouponGrant: 'grant',
  revokeCouponGrant: 'grant',
};

/** The list of one result per row sent: null there is `results_mismatch` (test/client/meetings.test.ts), not this rule. */
const ONE_PER_ROW: Partial<Record<OperationName, string>> = { bulkCreateConsultingMeetings: 'results', bulkCancelConsultingMeetings: 'results' };

/** The documented success payloads (a coupon without its grants: the default documents do not select them). */
function successPayload(item: OperationCase): Record<string, unknown> {
  return structuredClone(item.data[item.field]) as Record<string, unknown>;
}

type Path = string[];

/** Every field path of a payload (objects, list entries and leaves), `errors` and the main object excluded. */
function fieldPaths(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => (key === 'errors' && prefix.length === 0 ? [] : [[...prefix, key], ...fieldPaths(child, [...prefix, key])]));
}

function withValue(payload: Record<string, unknown>, path: Path, value: null | undefined): Record<string, unknown> {
  const copy = structuredClone(payload);
  const parent = path.slice(0, -1).reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, copy);
  const last = path.at(-1) as string;
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  return copy;
}

const server = useFaultServer();

async function answer(item: OperationCase, payload: Record<string, unknown>): Promise<{ ok: true; value: unknown } | { ok: false; error: unknown }> {
  server.script(json({ data: { [item.field]: payload } }));
  try {
    return { ok: true, value: await item.call(faultClient(server)) };
  } catch (error) {
    return { ok: false, error };
  }
}

function expectMissingGuaranteed(outcome: { ok: boolean; error?: unknown }, item: OperationCase, path: Path): void {
  expect(outcome.ok, `${item.method} resolved although ${path.join('.')} was null`).toBe(false);
  expect(outcome.error).toBeInstanceOf(InvalidResponseError);
  const error = outcome.error as InvalidResponseError;
  expect(error).toMatchObject({ problem: 'missing_guaranteed_field', operation: item.method });
  const field = path.filter((segment) => !/^\d+$/.test(segment)).at(-1) as string;
  expect(error.message).toContain(field);
  expect(error.message).toMatch(/^Failed to .+: .+\. .+\.$/);
}

const cases = OPERATION_CASES.flatMap((item) => {
  const payload = successPayload(item);
  const guaranteed = new Set(GUARANTEED[item.field]);
  const paths = fieldPaths(payload).filter((path) => ![MAIN[item.field], ONE_PER_ROW[item.field]].includes(path.join('.')));
  return paths.map((path) => ({ item, payload, path, guaranteed: guaranteed.has(path.join('.')) }));
});

describe('a successful payload never yields null where the types promise a value', () => {
  it('the spec list above names only fields the success payloads have', () => {
    for (const item of OPERATION_CASES) {
      const present = new Set(fieldPaths(successPayload(item)).map((path) => path.join('.')));
      expect(GUARANTEED[item.field].filter((path) => !present.has(path)), item.field).toEqual([]);
    }
  });

  describe.each(OPERATION_CASES.map((item) => [item.method, item] as const))('%s', (_method, item) => {
    const own = cases.filter((entry) => entry.item === item);

    it.each(own.filter((entry) => entry.guaranteed).map((entry) => [entry.path.join('.'), entry.path] as const))(
      'guaranteed %s null: InvalidResponseError missing_guaranteed_field, sent once',
      async (_name, path) => {
        const outcome = await answer(item, withValue(successPayload(item), path, null));
        expectMissingGuaranteed(outcome, item, path);
        expect(server.arrivals(item.field)).toBe(1);
      },
    );

    it.each(own.filter((entry) => !entry.guaranteed).map((entry) => [entry.path.join('.'), entry.path] as const))(
      'optional %s null: resolves, the null passed through',
      async (_name, path) => {
        const outcome = await answer(item, withValue(successPayload(item), path, null));
        expect(outcome.ok, outcome.ok ? '' : String((outcome as { error: unknown }).error)).toBe(true);
      },
    );
  });

  it('a guaranteed field left out of the payload (not just null) is refused the same way', async () => {
    for (const item of OPERATION_CASES) {
      const path = (GUARANTEED[item.field][0] as string).split('.');
      expectMissingGuaranteed(await answer(item, withValue(successPayload(item), path, undefined)), item, path);
    }
  });

  it('grantCoupon: a `created` that is not a boolean is no answer either (it used to read as false)', async () => {
    const grantCase = OPERATION_CASES.find((item) => item.field === 'createCouponGrant') as OperationCase;
    for (const created of [{}, 'yes', 1]) {
      expectMissingGuaranteed(await answer(grantCase, { ...successPayload(grantCase), created }), grantCase, ['created']);
    }
  });

  it('with includeGrants: true, each grant of the coupon is checked too (id, status, grantedAt)', async () => {
    for (const field of ['id', 'status', 'grantedAt']) {
      server.script(json({ data: { updateCoupon: { errors: null, coupon: coupon({ grants: [grant(), grant({ [field]: null })] }) } } }));
      const outcome = await faultClient(server).updateCoupon('c-1', { active: false }, { includeGrants: true }).then((value) => ({ ok: true, value }), (error: unknown) => ({ ok: false, error }));
      expectMissingGuaranteed(outcome, { method: 'updateCoupon' } as OperationCase, ['coupon', 'grants', '1', field]);
      server.reset();
    }
  });

  it('PayloadError still wins when the main object is null and the payload lists errors', async () => {
    const enroll = OPERATION_CASES.find((item) => item.field === 'enrollStudentToConsultingMeeting') as OperationCase;
    const outcome = await answer(enroll, { meeting: null, user: null, errors: ['Meeting is full'] });
    expect(outcome.ok).toBe(false);
    expect((outcome as { error: Error }).error.name).toBe('PayloadError');
  });
});

describe('property: any set of nulled fields resolves iff it spares every guaranteed one', () => {
  it('for every method, nulling a random set of fields resolves exactly when no guaranteed field is among them', async () => {
    const arbitrary = fc.constantFrom(...OPERATION_CASES.map((item) => item.field)).chain((field) => {
      const paths = cases.filter((entry) => entry.item.field === field).map((entry) => entry.path.join('.'));
      return fc.record({ field: fc.constant(field), nulled: fc.subarray(paths, { minLength: 1, maxLength: 6 }) });
    });
    await fc.assert(
      fc.asyncProperty(arbitrary, async ({ field, nulled }) => {
        const item = OPERATION_CASES.find((candidate) => candidate.field === field) as OperationCase;
        // Deepest paths first; a field under a nulled (optional) parent is simply not there any more.
        const ordered = [...nulled].sort((a, b) => b.split('.').length - a.split('.').length);
        const payload = ordered.reduce((current, path) => withValue(current, path.split('.'), null), successPayload(item));
        const outcome = await answer(item, payload);
        const hidden = (path: string) => nulled.some((other) => path.startsWith(`${other}.`));
        const broken = nulled.filter((path) => GUARANTEED[field].includes(path) && !hidden(path));
        if (broken.length === 0) {
          expect(outcome.ok, outcome.ok ? '' : String((outcome as { error: unknown }).error)).toBe(true);
        } else {
          expect(outcome.ok).toBe(false);
          expect((outcome as { error: unknown }).error).toMatchObject({ problem: 'missing_guaranteed_field' });
        }
        server.reset();
      }),
      { numRuns: 150 },
    );
  });
});
