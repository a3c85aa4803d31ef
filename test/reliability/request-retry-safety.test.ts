import { describe, expect, it } from 'vitest';
import { InvalidInputError, NetworkError, type RequestEvent } from '../../src/index.js';
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
/** Documents that name a mutation or subscription, whichever would run (or none): unsafe too. */
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

describe('request(): a text that may hold a mutation is not re-sent, whatever its first characters', () => {
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

describe('request(document, variables, { operationName }): the named operation runs; retry safety follows the whole text', () => {
  const QUERY_AND_MUTATION = `query Probe { __typename } mutation Create { ${CREATE} }`;

  it('operationName is sent in the JSON body beside query and variables', async () => {
    server.script(answerOk);
    await faultClient(server).request(QUERY_AND_MUTATION, { a: 1 }, { operationName: 'Probe' });
    expect(JSON.parse(server.log[0]?.request?.body ?? '{}')).toEqual({ query: QUERY_AND_MUTATION, variables: { a: 1 }, operationName: 'Probe' });
  });

  it('without operationName the body has no such key (a single-operation document needs none)', async () => {
    server.script(answerOk);
    await faultClient(server).request('query { __typename }');
    expect(Object.keys(JSON.parse(server.log[0]?.request?.body ?? '{}') as object)).toEqual(['query']);
  });

  it('the query of a query-and-mutation document, named: not safe to repeat (the text holds a mutation), sent once', async () => {
    const { arrivals, error } = await arrivalsAfterAResetThenOk(() => faultClient(server, { maxRetries: 3 }).request(QUERY_AND_MUTATION, undefined, { operationName: 'Probe' }));
    expect(arrivals).toBe(1);
    expect(error).toBeInstanceOf(NetworkError);
  });

  it('the query of a query-and-mutation document, named, with { idempotent: true }: retried after a reset', async () => {
    const { arrivals, error } = await arrivalsAfterAResetThenOk(() => faultClient(server, { maxRetries: 3 }).request(QUERY_AND_MUTATION, undefined, { operationName: 'Probe', idempotent: true }));
    expect(error).toBeUndefined();
    expect(arrivals).toBe(2);
  });

  it('the mutation of the same document, named: not safe to repeat, sent once', async () => {
    const { arrivals, error } = await arrivalsAfterAResetThenOk(() => faultClient(server, { maxRetries: 3 }).request(QUERY_AND_MUTATION, undefined, { operationName: 'Create' }));
    expect(arrivals).toBe(1);
    expect(error).toBeInstanceOf(NetworkError);
  });

  it('a name the document does not have: the document holds a mutation, sent once', async () => {
    const { arrivals } = await arrivalsAfterAResetThenOk(() => faultClient(server, { maxRetries: 3 }).request(QUERY_AND_MUTATION, undefined, { operationName: 'Missing' }));
    expect(arrivals).toBe(1);
  });

  it('two queries, one named: queries only, so safe to repeat, retried after a reset', async () => {
    const { arrivals, error } = await arrivalsAfterAResetThenOk(() => faultClient(server, { maxRetries: 3 }).request('query Probe { __typename } query Other { __typename }', undefined, { operationName: 'Probe' }));
    expect(error).toBeUndefined();
    expect(arrivals).toBe(2);
  });

  it('the rate-limit budget still follows the first word (spec, Limits rule 3): a document starting with a query is paced as a query, whichever operation is named', async () => {
    server.script(answerOk);
    const admin = faultClient(server);
    const events: RequestEvent[] = [];
    admin.on('request', (event) => events.push(event));
    await admin.request(QUERY_AND_MUTATION, undefined, { operationName: 'Create' });
    await admin.request(`mutation Create { ${CREATE} } query Probe { __typename }`, undefined, { operationName: 'Probe' });
    expect(events.map((event) => event.operationType)).toEqual(['queries', 'mutations']);
  });

  it.each([
    ['an empty string', ''],
    ['not a GraphQL name', 'two words'],
    ['not a string', 42],
  ])('operationName that is %s: InvalidInputError naming operationName, nothing sent', async (_how, name) => {
    server.script(answerOk);
    const error = await faultClient(server)
      .request(QUERY_AND_MUTATION, undefined, { operationName: name as string })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ field: 'operationName' });
    expect(server.log).toHaveLength(0);
  });
});
