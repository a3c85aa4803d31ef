/** What a naive client throws for a non-2xx answer or GraphQL errors: the status, as graphql-request's `ClientError` carries it. */
export class NaiveClientError extends Error {
  constructor(readonly response: { status: number; errors: unknown }) {
    super(`GraphQL request failed with status ${response.status}`);
  }
}

/**
 * The naive baseline's GraphQL client: what graphql-request's `request()` does, and what many
 * integrations write by hand. One POST per call, no pacing, no reading of Retry-After; a non-2xx
 * answer or one with `errors` throws, everything else resolves to `data`. (The SDK itself no longer
 * depends on graphql-request; the baseline keeps its behaviour without the package.)
 */
export class GraphQLClient {
  constructor(
    private readonly endpoint: string,
    private readonly options: { headers: Record<string, string> },
  ) {}

  async request(document: string, variables: Record<string, unknown>): Promise<unknown> {
    const response = await fetch(this.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', ...this.options.headers },
      body: JSON.stringify({ query: document, variables }),
    });
    const body = (await response.json().catch(() => undefined)) as { data?: unknown; errors?: unknown } | undefined;
    if (!response.ok || body === undefined || (Array.isArray(body.errors) && body.errors.length > 0)) {
      throw new NaiveClientError({ status: response.status, errors: body?.errors });
    }
    return body.data;
  }
}
