import { describe, expect, it } from 'vitest';
import { NetworkError, type RequestEvent } from '../../src/index.js';
import { answerOk, faultClient } from './support/operation-cases.js';
import { useFaultServer } from './support/use-fault-server.js';

const server = useFaultServer();

const CREATE = 'createCoupon(input: { name: "VIP", couponType: "percentage", amount: 20 }) { errors }';
/** Mutations as people write them in code: none starts with the characters `mutation`. */
const MUTATIONS: [how: string, document: string][] = [
  ['a template literal (leading newline and indentation)', `\n    mutation CreateVip {\n      ${CREATE}\n    }\n  `],
  ['indented by spaces', `  mutation { ${CREATE} }`],
  ['a # comment first', `# create the VIP coupon\nmutation { ${CREATE} }`],
  ['a byte-order mark first', `\uFEFFmutation { ${CREATE} }`],
  ['a comma first (GraphQL ignores commas)', `,mutation { ${CREATE} }`],
  ['a fragment before the operation', `fragment E on AdminCouponCreatePayload { errors }\nmutation { createCoupon(input: { name: "VIP", couponType: "percentage", amount: 20 }) { ...E } }`],
];
/** Documents whose operation cannot be told for sure: treated as unsafe too. */
const UNSURE: [how: string, document: string][] = [
  ['two operations (which one runs is not known)', `query A { __typename } mutation B { ${CREATE} }`],
  ['a document that does not parse', `mutation { ${CREATE}`],
  ['a subscription', 'subscription { couponCreated { id } }'],
];

async function arrivalsAfterAResetThenOk(run: () => Promise<unknown>): Promise<{ arrivals: number; error: unknown }> {
  server.script({ kind: 'reset-after-read' }, answerOk);
  const error = await run().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return { arrivals: server.log.length, error };
}

describe('request(): retry safety follows what the document really is (parsed), not its first characters', () => {
  // Regression: retry safety used the server's prefix rule (startsWith('mutation')), so a mutation
  // written as a template literal or after a comment was retried like a query after a connection
  // reset: one createCoupon arrived 4 times.
  it.each(MUTATIONS)('a mutation written with %s is not re-sent after a reset that may have reached the server', async (_how, document) => {
    const { arrivals, error } = await arrivalsAfterAResetThenOk(() => faultClient(server, { maxRetries: 3 }).request(document));
    expect(arrivals).toBe(1);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ mayHaveReachedServer: true });
  });

  it.each(UNSURE)('%s: unsure means unsafe, sent once', async (_how, document) => {
    const { arrivals, error } = await arrivalsAfterAResetThenOk(() => faultClient(server, { maxRetries: 3 }).request(document));
    expect(arrivals).toBe(1);
    expect(error).toBeInstanceOf(NetworkError);
  });

  it.each([
    ['a query written as a template literal', '\n  query Q {\n    __typename\n  }\n'],
    ['an anonymous query after a comment', '# who am I\n{ __typename }'],
  ])('%s is safe to repeat: retried after the reset, then resolves', async (_how, document) => {
    const { arrivals, error } = await arrivalsAfterAResetThenOk(() => faultClient(server, { maxRetries: 3 }).request(document));
    expect(error).toBeUndefined();
    expect(arrivals).toBe(2);
  });

  it('{ idempotent: true } still makes such a mutation safe to repeat', async () => {
    const [, document] = MUTATIONS[0] as [string, string];
    const { arrivals, error } = await arrivalsAfterAResetThenOk(() => faultClient(server, { maxRetries: 3 }).request(document, undefined, { idempotent: true }));
    expect(error).toBeUndefined();
    expect(arrivals).toBe(2);
  });
});

describe('request(): the rate-limit budget keeps the server\'s prefix rule (spec, Limits rule 3)', () => {
  it.each([
    ['a document starting with `mutation`', 'mutations', `mutation { ${CREATE} }`],
    ['a template-literal mutation (the server counts it as a query)', 'queries', `\n  mutation { ${CREATE} }`],
    ['a commented mutation (the server counts it as a query)', 'queries', `# c\nmutation { ${CREATE} }`],
    ['a query', 'queries', 'query { __typename }'],
  ])('%s is paced in the %s bucket', async (_how, bucket, document) => {
    server.script(answerOk);
    const admin = faultClient(server);
    const events: RequestEvent[] = [];
    admin.on('request', (event) => events.push(event));
    await expect(admin.request(document)).resolves.toBeDefined();
    expect(events.map((event) => event.operationType)).toEqual([bucket]);
    expect(server.log).toHaveLength(1);
  });
});
