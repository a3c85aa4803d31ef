import type { Simulator } from '../../../src/testing/index.js';

/** A parsed simulator answer. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  /** The parsed body, read by assertions. */
  json: any;
}

/** Sends one GraphQL request straight to `simulator.handle()` (no SDK, no network). */
export async function postGraphQL(
  simulator: Simulator,
  query: string,
  variables: Record<string, unknown> = {},
  apiKey: string | undefined = undefined,
): Promise<RawAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (apiKey !== undefined) headers['X-Service-API-Key'] = apiKey;
  const answer = await simulator.handle({ method: 'POST', path: '/admin/graphql', headers, body: JSON.stringify({ query, variables }) });
  return { status: answer.status, headers: answer.headers, json: JSON.parse(answer.body) };
}

/** A cheap mutation that fails with a coded error (CONSULTING-001) but still counts as a mutation. */
export const CHEAP_MUTATION = 'mutation { deleteConsultingService(id: "missing") { errors } }';
/** A cheap query. */
export const CHEAP_QUERY = '{ __typename }';
