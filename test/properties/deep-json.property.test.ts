import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AdminApiError, type AdminClient } from '../../src/index.js';
import { fixedAnswerClient } from '../support/fixed-answer-client.js';

const DEPTH = 100_000;
const deepArrays = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObjects = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** A client whose fetch answers every request with `text` and `status`. */
const answering = (text: string, status = 200): AdminClient => fixedAnswerClient(text, { status }).admin;

type Call = (admin: AdminClient) => Promise<unknown>;
const grant: Call = (admin) => admin.grantCoupon('c-1', { userId: 'u-1' });
const bulkCreate: Call = (admin) => admin.bulkCreateMeetings('svc-1', [{ startedAt: 1_800_000_000, endedAt: 1_800_003_600 }]);
const anyDocument: Call = (admin) => admin.request('query { __typename }');

/** A result or an AdminApiError: never a bare RangeError or TypeError. */
async function settle(call: Call, admin: AdminClient): Promise<unknown> {
  return call(admin).then(
    () => 'resolved',
    (caught: unknown) => caught,
  );
}

describe('deep JSON: every response-derived failure is an AdminApiError, however deep the nesting', () => {
  // Regression: the earlier deep-JSON fix bounded normalizeIntegers and the Redactor only; a deep
  // value in errors[].path, a payload errors entry or a bulk row error still rejected with a bare
  // RangeError (String() and JSON.stringify recurse once per level).
  it.each([
    ['errors[].path of a coded error', (deep: string) => `{"data":null,"errors":[{"message":"m","path":${deep},"extensions":{"error":{"code":"COUPON-001","message":"m"}}}]}`, grant],
    ['an entry of errors[].path', (deep: string) => `{"data":null,"errors":[{"message":"m","path":["createCouponGrant",${deep}],"extensions":{"error":{"code":"COUPON-001","message":"m"}}}]}`, grant],
    ['errors[].path of an uncoded error', (deep: string) => `{"data":null,"errors":[{"message":"m","path":[${deep}]}]}`, grant],
    ['a payload errors entry', (deep: string) => `{"data":{"createCouponGrant":{"grant":null,"created":null,"errors":[${deep}]}}}`, grant],
    ['a bulk row error', (deep: string) => `{"data":{"bulkCreateConsultingMeetings":{"allSucceeded":false,"errors":null,"results":[{"meeting":null,"errors":[${deep}]}]}}}`, bulkCreate],
    ['the bulk payload errors', (deep: string) => `{"data":{"bulkCreateConsultingMeetings":{"allSucceeded":false,"errors":[${deep}],"results":[]}}}`, bulkCreate],
    ['an error message', (deep: string) => `{"data":null,"errors":[{"message":${deep}}]}`, grant],
    ['extensions of a 429', (deep: string) => `{"errors":[{"message":"m","extensions":{"code":"RATE_LIMIT_EXCEEDED","x":${deep}}}]}`, grant],
    ['the data of request()', (deep: string) => `{"data":{"x":${deep}}}`, anyDocument],
  ])('100,000 nested levels in %s give a result or an AdminApiError', async (_where, build, call) => {
    for (const deep of [deepArrays(DEPTH), deepObjects(DEPTH)]) {
      const outcome = await settle(call, answering(build(deep)));
      expect(outcome === 'resolved' || outcome instanceof AdminApiError, String(outcome)).toBe(true);
    }
  });
});

/** A placeholder in generated bodies that becomes deep nesting in the text sent. */
const HOLE = '__deep_hole__';
const json = fc.jsonValue({ maxDepth: 2 });
const maybeHole = fc.oneof({ weight: 3, arbitrary: json }, { weight: 1, arbitrary: fc.constant(HOLE) });
const entry = fc.record(
  { message: maybeHole, path: fc.oneof(maybeHole, fc.array(maybeHole, { maxLength: 3 })), extensions: fc.record({ code: maybeHole, error: fc.record({ code: fc.oneof(fc.constant('COUPON-001'), maybeHole), message: maybeHole, details: maybeHole }, { requiredKeys: [] }) }, { requiredKeys: [] }) },
  { requiredKeys: [] },
);
const payload = fc.record({ grant: maybeHole, created: maybeHole, errors: fc.oneof(maybeHole, fc.array(maybeHole, { maxLength: 3 })), results: fc.array(fc.record({ meeting: maybeHole, errors: fc.oneof(maybeHole, fc.array(maybeHole, { maxLength: 2 })) }, { requiredKeys: [] }), { maxLength: 2 }), allSucceeded: maybeHole }, { requiredKeys: [] });
const body = fc.record(
  {
    data: fc.oneof(maybeHole, fc.record({ createCouponGrant: fc.oneof(maybeHole, payload), bulkCreateConsultingMeetings: fc.oneof(maybeHole, payload) }, { requiredKeys: [] })),
    errors: fc.oneof(maybeHole, fc.array(entry, { maxLength: 2 })),
    extensions: maybeHole,
  },
  { requiredKeys: [] },
);

describe('property: deep or odd JSON anywhere', () => {
  it('any body with nesting up to 100,000 levels at random places, any status, any method: a result or an AdminApiError', async () => {
    await fc.assert(
      fc.asyncProperty(
        body,
        fc.constantFrom(200, 200, 400, 429, 500, 503),
        fc.constantFrom(grant, bulkCreate, anyDocument),
        fc.integer({ min: 1, max: DEPTH }),
        fc.boolean(),
        async (value, status, call, depth, arrays) => {
          const text = JSON.stringify(value).split(`"${HOLE}"`).join(arrays ? deepArrays(depth) : deepObjects(depth));
          const outcome = await settle(call, answering(text, status));
          expect(outcome === 'resolved' || outcome instanceof AdminApiError, String(outcome)).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });
});
