import { afterAll, afterEach, beforeAll } from 'vitest';
import { http, HttpResponse } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import { AdminClient, type AdminClientOptions } from '../../src/index.js';
import { listenOptions } from './msw-listen.js';

/** The base URL the scripted API answers on. */
export const BASE_URL = 'https://school.test';
/** A key that must never show up in errors or logs. */
export const API_KEY = 'sk_live_test_9f8e7d6c5b4a3210';

/** One request the scripted API received. */
export interface ReceivedRequest {
  url: string;
  headers: Headers;
  query: string;
  variables: Record<string, unknown>;
}

/** A scripted answer: a JSON body with optional status and headers. */
export interface ScriptedAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Raw text instead of JSON. */
  text?: string;
}

type Answer = ScriptedAnswer | ((request: ReceivedRequest) => ScriptedAnswer);

/**
 * An msw server standing in for the admin API: it records every request and answers with the
 * next scripted answer (the last one repeats). For unit tests of the client's request building and
 * response parsing; the stateful simulator covers the API's behaviour.
 */
export class ScriptedAdminApi {
  readonly requests: ReceivedRequest[] = [];
  readonly server: SetupServer;
  #answers: Answer[] = [];

  constructor() {
    this.server = setupServer(
      http.post(`${BASE_URL}/admin/graphql`, async ({ request }) => {
        const body = (await request.json()) as { query: string; variables?: Record<string, unknown> };
        const received = { url: request.url, headers: request.headers, query: body.query, variables: body.variables ?? {} };
        this.requests.push(received);
        const next = this.#answers.length > 1 ? this.#answers.shift() : this.#answers[0];
        if (next === undefined) throw new Error('ScriptedAdminApi: no answer scripted');
        const answer = typeof next === 'function' ? next(received) : next;
        const init = { status: answer.status ?? 200, headers: answer.headers ?? {} };
        return answer.text === undefined ? HttpResponse.json(answer.body as never, init) : new HttpResponse(answer.text, init);
      }),
    );
  }

  /** Queues answers for the next requests (the last one repeats). */
  answer(...answers: Answer[]): this {
    this.#answers = answers;
    return this;
  }

  /** Answers with `data`. */
  data(data: Record<string, unknown>): this {
    return this.answer({ body: { data } });
  }

  /** Answers with a documented coded error. */
  coded(field: string, code: string, message = `${code} happened`, details: Record<string, unknown> = {}): this {
    return this.answer({ body: codedErrorBody(field, code, message, details) });
  }

  reset(): void {
    this.requests.length = 0;
    this.#answers = [];
  }

  /** The last request received. */
  get last(): ReceivedRequest {
    const last = this.requests.at(-1);
    if (last === undefined) throw new Error('no request received');
    return last;
  }
}

/** The body of a coded error, as the spec documents it. */
export function codedErrorBody(field: string, code: string, message: string, details: Record<string, unknown> = {}): unknown {
  return { data: null, errors: [{ message, path: [field], extensions: { error: { code, message, details } } }] };
}

/** A client for the scripted API: no pacing, fast retries. */
export function testClient(options: Partial<AdminClientOptions> = {}): AdminClient {
  return new AdminClient({ apiKey: API_KEY, baseUrl: BASE_URL, limits: false, retryBaseDelayMs: 1, maxRetryDelayMs: 5, ...options });
}

/**
 * A scripted API listening for the current test file: msw is started before the tests, reset
 * (requests, answers and extra handlers) after each, and closed at the end.
 */
export function useScriptedAdminApi(options: { onUnhandledRequest?: 'error' | 'bypass' } = {}): ScriptedAdminApi {
  const api = new ScriptedAdminApi();
  beforeAll(() => api.server.listen(listenOptions(options.onUnhandledRequest ?? 'error')));
  afterEach(() => {
    api.reset();
    api.server.resetHandlers();
  });
  afterAll(() => api.server.close());
  return api;
}
