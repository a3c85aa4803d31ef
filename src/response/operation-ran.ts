import type { HttpOutcome } from '../transport/graphql-transport.js';
import { isObject } from './graphql-errors.js';

/**
 * True when the answer's `data` holds a result of the operation: a root field that is not null.
 * Mutation root fields run one after the other and are null when they did not complete, so such an
 * answer shows that the operation ran, whatever its status and whatever errors ride along (a
 * rate-limit code on a nested field included): it must never lead to sending it again.
 *
 * False does not show that it did not run. `data: null` (or a null root field) with an error whose
 * path names the mutation means its resolver started and failed, and GraphQL drops the result
 * whatever the resolver had already done: the mutation may have run. Such an answer is
 * `GraphQLResponseError` with `ran: 'unknown'`, which no retry rule sends again; only a request
 * error (no `data`: `GraphQLRequestError`) or a 429 shows that nothing ran.
 */
export function showsOperationRan(outcome: HttpOutcome): boolean {
  const data = outcome.body?.data;
  return isObject(data) && Object.values(data).some((value) => value !== null && value !== undefined);
}
