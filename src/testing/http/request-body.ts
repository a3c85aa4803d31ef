/** A GraphQL-over-HTTP request body, read leniently. */
export type ParsedBody =
  | { ok: true; query: string; variables: Record<string, unknown> | undefined; operationName: string | undefined }
  /** `query` is whatever string could be found (for rate-limit classification), else ''. */
  | { ok: false; query: string; reason: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads `{ query, variables?, operationName? }` from a JSON body. */
export function parseRequestBody(body: string): ParsedBody {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, query: '', reason: 'the body is not JSON' };
  }
  if (!isRecord(json)) return { ok: false, query: '', reason: 'the body must be a JSON object (batches are not supported)' };
  const { query, variables, operationName } = json;
  if (typeof query !== 'string') return { ok: false, query: '', reason: 'the body has no "query" string' };
  if (variables !== undefined && variables !== null && !isRecord(variables)) {
    return { ok: false, query, reason: '"variables" must be an object' };
  }
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    return { ok: false, query, reason: '"operationName" must be a string' };
  }
  return { ok: true, query, variables: variables ?? undefined, operationName: operationName ?? undefined };
}
