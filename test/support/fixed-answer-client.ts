import { AdminClient, type AdminClientOptions } from '../../src/index.js';
import { API_KEY } from './scripted-admin-api.js';

/** A client whose fetch answers every request with the same body, and what it was asked. */
export interface FixedAnswerClient {
  admin: AdminClient;
  /** The `init` of every fetch call, in order (`requests.length` is what reached the "wire"). */
  requests: RequestInit[];
}

/**
 * An AdminClient whose fetch answers every request with `body` (text, or JSON of a value) and
 * `status`, labelled as JSON. No pacing, no retries and no 429 waiting unless `options` say so.
 */
export function fixedAnswerClient(body: unknown, options: Partial<AdminClientOptions> & { status?: number } = {}): FixedAnswerClient {
  const { status = 200, ...clientOptions } = options;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const requests: RequestInit[] = [];
  const admin = new AdminClient({
    apiKey: API_KEY,
    baseUrl: 'https://school.example',
    limits: false,
    maxRetries: 0,
    maxRateLimitWaitMs: 0,
    ...clientOptions,
    fetch: async (_input, init) => {
      requests.push(init ?? {});
      return new Response(text, { status, headers: { 'content-type': 'application/json' } });
    },
  });
  return { admin, requests };
}
