import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInputError, type AdminClient } from '../../src/index.js';
import { INPUT_OBJECT_FIELDS, INPUT_TYPE_KINDS, OPERATION_VARIABLES } from '../../src/generated/operation-inputs.js';
import { fixedAnswerClient } from '../support/fixed-answer-client.js';

type NumericKind = 'int' | 'float' | 'bigint';

/** A client whose fetch records every call (and answers nothing useful: nothing should reach it). */
function recordingClient(options: { bulkChunkSize?: number } = {}): { admin: AdminClient; calls: () => number } {
  const { admin, requests } = fixedAnswerClient({ data: null, errors: [{ message: 'should not be sent' }] }, options);
  return { admin, calls: () => requests.length };
}

const row = { startedAt: 1_800_000_000, endedAt: 1_800_003_600 };
const BULK_ROWS = 5;
const BULK_CHUNK = 2;

/**
 * Every numeric input of every method, as a call that puts `value` there. `leaf` is the field in
 * the schema's terms (operation field, variable path); `field` the path the error must name.
 */
interface NumericInput {
  leaf: string;
  kind: NumericKind;
  call: (admin: AdminClient, value: unknown, index: number) => Promise<unknown>;
  field: (index: number) => string;
}

const bulkRows = (name: string, value: unknown, index: number) => Array.from({ length: BULK_ROWS }, (_, at) => (at === index ? { ...row, [name]: value } : row));
const meetingFields: [string, NumericKind][] = [['startedAt', 'int'], ['endedAt', 'int'], ['maxAttendeeCapacity', 'int'], ['price', 'float']];
const couponFields: [string, NumericKind][] = [['amount', 'float'], ['startedAt', 'bigint'], ['expiredAt', 'bigint'], ['redemptionLimit', 'int']];

const NUMERIC_INPUTS: NumericInput[] = [
  { leaf: 'updateSubscription currentPeriodEnd', kind: 'int', call: (a, v) => a.updateSubscriptionPeriod('sub-1', v as never), field: () => 'currentPeriodEnd' },
  ...meetingFields.map(([name, kind]): NumericInput => ({
    leaf: `bulkCreateConsultingMeetings inputs[].${name}`,
    kind,
    call: (a, v, index) => a.bulkCreateMeetings('svc-1', bulkRows(name, v, index) as never),
    field: (index) => `rows[${index}].${name}`,
  })),
  ...meetingFields.map(([name, kind]): NumericInput => ({ leaf: `updateConsultingMeeting input.${name}`, kind, call: (a, v) => a.updateMeeting('m-1', { [name]: v } as never), field: () => `input.${name}` })),
  { leaf: 'rateConsultingMeeting score', kind: 'float', call: (a, v) => a.rateMeeting('m-1', { userId: 'u-1' }, { score: v as never }), field: () => 'score' },
  ...couponFields.map(([name, kind]): NumericInput => ({
    leaf: `createCoupon input.${name}`,
    kind,
    call: (a, v) => a.createCoupon({ name: 'VIP', couponType: 'percentage', amount: 20, [name]: v } as never),
    field: () => `input.${name}`,
  })),
  ...couponFields.map(([name, kind]): NumericInput => ({ leaf: `updateCoupon input.${name}`, kind, call: (a, v) => a.updateCoupon('c-1', { [name]: v } as never), field: () => `input.${name}` })),
];

/** The numeric leaves of every operation's variables, read from the schema-derived module. */
function numericLeaves(): string[] {
  const kinds = INPUT_TYPE_KINDS as Record<string, string>;
  const leaves: string[] = [];
  const walk = (prefix: string, type: string, path: string): void => {
    const bare = type.replace(/!$/, '');
    if (bare.startsWith('[')) return walk(prefix, bare.slice(1, -1), `${path}[]`);
    const kind = kinds[bare];
    if (kind === 'int' || kind === 'float' || kind === 'bigint') leaves.push(`${prefix} ${path}`);
    if (kind === 'input') for (const [name, field] of Object.entries((INPUT_OBJECT_FIELDS as Record<string, Record<string, string>>)[bare] ?? {})) walk(prefix, field, `${path}.${name}`);
  };
  for (const [operation, variables] of Object.entries(OPERATION_VARIABLES as Record<string, Record<string, string>>)) {
    for (const [name, type] of Object.entries(variables)) walk(operation, type, name);
  }
  return leaves.sort();
}

const INT_MAX = 2 ** 31 - 1;
const notFinite = fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY);
const invalidDate = fc.constantFrom(new Date('garbage'), new Date(Number.NaN), new Date(''));
const fraction = fc.double({ min: -2e9, max: 2e9, noNaN: true }).filter((value) => !Number.isInteger(value));
const beyondInt = fc.oneof(fc.double({ min: INT_MAX + 1, max: 1e300, noNaN: true }), fc.double({ min: -1e300, max: -INT_MAX - 2, noNaN: true })).map(Math.floor);
const dateBeyondInt = fc.integer({ min: 2039, max: 9999 }).map((year) => new Date(Date.UTC(year, 0, 1)));
const beyondSafe = fc.oneof(fc.double({ min: 2 ** 53, max: 1e300, noNaN: true }), fc.double({ min: -1e300, max: -(2 ** 53), noNaN: true })).map(Math.floor);

/** The bad values for each kind: what JSON turns into null, fractions and out-of-range values. */
const BAD_VALUES: Record<NumericKind, fc.Arbitrary<unknown>> = {
  int: fc.oneof(notFinite, invalidDate, fraction, beyondInt, dateBeyondInt),
  bigint: fc.oneof(notFinite, invalidDate, fraction, beyondSafe),
  float: fc.oneof(notFinite, invalidDate),
};

describe('every numeric and timestamp input is checked against its schema type before sending', () => {
  it('the table below covers every numeric leaf of every operation\'s variables (derived from the schema at codegen time)', () => {
    expect(NUMERIC_INPUTS.map((input) => input.leaf).sort()).toEqual(numericLeaves());
  });

  // Regression: JSON turned NaN, ±Infinity and invalid Dates into null (an invalid expiredAt cleared
  // the expiry, a NaN capacity made an unlimited slot), fractional and out-of-range Ints went out
  // as they were, and nothing checked the rows of later chunks before the first was sent.
  it('property: every method x every numeric field x {NaN, ±Infinity, invalid Date, fraction, out of range}: InvalidInputError naming the field, zero requests', async () => {
    const cases = fc.constantFrom(...NUMERIC_INPUTS).chain((input) => fc.tuple(fc.constant(input), BAD_VALUES[input.kind], fc.nat(BULK_ROWS - 1)));
    await fc.assert(
      fc.asyncProperty(cases, async ([input, value, index]) => {
        const { admin, calls } = recordingClient({ bulkChunkSize: BULK_CHUNK });
        const error = await input.call(admin, value, index).then(
          () => 'resolved',
          (caught: unknown) => caught,
        );
        expect(calls()).toBe(0);
        expect(error).toBeInstanceOf(InvalidInputError);
        expect((error as InvalidInputError).field).toBe(input.field(index));
        expect((error as Error).message).toContain(input.field(index));
        if (typeof value === 'number') expect((error as Error).message).not.toContain(String(value));
      }),
      { numRuns: 1_000 },
    );
  });

  it('request(): NaN, ±Infinity and invalid Dates anywhere in the variables are refused, nothing sent', async () => {
    const bad = fc.oneof(notFinite, invalidDate);
    const variables = fc.tuple(fc.jsonValue({ maxDepth: 3 }), bad, fc.array(fc.constantFrom('a', 'b', 'list'), { minLength: 1, maxLength: 4 }));
    await fc.assert(
      fc.asyncProperty(variables, async ([noise, value, path]) => {
        const nested = path.reduceRight<unknown>((inner, key) => (key === 'list' ? [noise, inner] : { [key]: inner, noise }), value);
        const { admin, calls } = recordingClient();
        const error = await admin.request('mutation($v: JSON) { x(v: $v) }', { v: nested }).catch((caught: unknown) => caught);
        expect(calls()).toBe(0);
        expect(error).toBeInstanceOf(InvalidInputError);
        expect((error as InvalidInputError).field.startsWith('v')).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('valid values go out, converted where the API wants seconds', () => {
  it.each([
    ['an Int at its bounds', (a: AdminClient) => a.updateMeeting('m-1', { maxAttendeeCapacity: INT_MAX, startedAt: -(2 ** 31) }), { input: { maxAttendeeCapacity: INT_MAX, startedAt: -(2 ** 31) } }],
    ['a BigInt beyond 2^31 and a string of digits', (a: AdminClient) => a.updateCoupon('c-1', { startedAt: 2 ** 40, expiredAt: '99999999999999999999' as never }), { input: { startedAt: 2 ** 40, expiredAt: '99999999999999999999' } }],
    ['Dates in BigInt and Int fields (whole seconds, rounded down)', (a: AdminClient) => a.bulkCreateMeetings('svc-1', [{ startedAt: new Date(1_800_000_000_999), endedAt: new Date(1_800_003_600_000) }]), { inputs: [{ startedAt: 1_800_000_000, endedAt: 1_800_003_600 }] }],
    ['null (meaningful in updates) and absent fields', (a: AdminClient) => a.updateCoupon('c-1', { expiredAt: null, redemptionLimit: null }), { input: { expiredAt: null, redemptionLimit: null } }],
  ])('%s', async (_case, call, expected) => {
    const { admin, requests } = fixedAnswerClient({ data: null, errors: [{ message: 'x' }] });
    await call(admin).catch(() => undefined);
    const sent = requests.map((init) => (JSON.parse(String(init.body)) as { variables: unknown }).variables);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject(expected);
  });
});
