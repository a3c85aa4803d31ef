import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { AdminApiError, type AdminClient, type AdminClientOptions, type Logger, type LogLevel } from '../../src/index.js';
import { API_KEY } from '../support/scripted-admin-api.js';
import type { FaultStep } from './support/fault-server.js';
import { answerOk, faultClient, json } from './support/operation-cases.js';
import type { RawHeaders, RawRequest } from './support/raw-http.js';
import { useFaultServer } from './support/use-fault-server.js';

const server = useFaultServer();

const EMAIL = 'grace.hopper@example.com';
const COUPON_ID = 'coupon-hopper-1906';
/** Request variables other than the email: none may reach a message either. */
const VARIABLES = [EMAIL, COUPON_ID];

/** A hostile server echoes everything it received, the key header included, wherever it can. */
const echo = (request: RawRequest): string => `got ${request.body} with key ${request.headers['x-service-api-key'] ?? ''} for ${EMAIL}`;
const echoing = (build: (text: string) => FaultStep): FaultStep => (request) => {
  const step = build(echo(request));
  return typeof step === 'function' ? step(request) : step;
};

/**
 * The same server also echoes into response headers, which errors and `withResponse()` now show:
 * the key as the request id, in a cookie, in a header's name and in a redirect-like URL, the
 * member's email and the whole request in another header.
 */
const hostileHeaders = (request: RawRequest): RawHeaders => ({
  'X-Request-Id': API_KEY,
  'X-Echo': echo(request),
  'Set-Cookie': [`session=${API_KEY}; HttpOnly`, 'theme=dark'],
  Authorization: 'Bearer tok_session_1',
  [API_KEY]: 'a header named like the key',
  'Content-Location': `http://admin:${API_KEY}@cdn.example/${encodeURIComponent(EMAIL)}?key=${API_KEY}`,
});
const withHostileHeaders = (step: FaultStep): FaultStep => (request) => {
  const action = typeof step === 'function' ? step(request) : step;
  return action.kind === 'respond' ? { ...action, headers: { ...hostileHeaders(request), ...action.headers } } : action;
};

const grant = (admin: AdminClient) => admin.grantCoupon(COUPON_ID, { email: EMAIL });
const rateLimitBody = (text: string) => ({ errors: [{ message: text, extensions: { code: 'RATE_LIMIT_EXCEEDED', operation_type: 'mutations', limit: 200, retry_after: 0, detail: text } }] });

interface Scenario {
  errorClass: string;
  steps: FaultStep[];
  call: (admin: AdminClient) => Promise<unknown>;
  options?: Partial<AdminClientOptions>;
}

const SCENARIOS: Scenario[] = [
  {
    errorClass: 'CodedError',
    steps: [echoing((text) => json({ data: null, errors: [{ message: text, path: ['createCouponGrant'], extensions: { error: { code: 'ENROLLMENT-002', message: text, details: { echo: text } } } }] }))],
    call: grant,
  },
  { errorClass: 'CodedError', steps: [], call: (admin) => admin.grantCoupon(COUPON_ID, { email: EMAIL, userId: API_KEY } as never) },
  { errorClass: 'PayloadError', steps: [echoing((text) => json({ data: { createCouponGrant: { grant: null, created: null, errors: [text] } } }))], call: grant },
  { errorClass: 'RateLimitError', steps: [echoing((text) => json(rateLimitBody(text), 429, { 'Retry-After': '0', 'X-Echo': 'x' }))], call: grant, options: { maxRetries: 1 } },
  { errorClass: 'AuthenticationError', steps: [echoing((text) => json({ errors: [{ message: text, extensions: { code: 'UNAUTHENTICATED' } }] }, 401))], call: grant },
  { errorClass: 'HttpError', steps: [echoing((text) => ({ kind: 'respond', status: 502, headers: { 'Content-Type': 'text/html' }, body: `<pre>${text}</pre>` }))], call: grant, options: { maxRetries: 1 } },
  { errorClass: 'NetworkError', steps: [{ kind: 'reset-after-read' }], call: grant, options: { maxRetries: 1 } },
  {
    errorClass: 'NetworkError',
    steps: [],
    call: grant,
    options: {
      maxRetries: 0,
      // A custom fetch whose failure quotes the whole request, key and body included.
      fetch: async (_input, init) => {
        const headers = JSON.stringify(init?.headers ?? {});
        throw Object.assign(new TypeError(`fetch failed for ${headers} ${String(init?.body)}`), { code: 'ECONNRESET', cause: new Error(`socket of ${API_KEY}`) });
      },
    },
  },
  { errorClass: 'TimeoutError', steps: [{ kind: 'hang' }], call: grant, options: { maxRetries: 1, timeoutMs: 150 } },
  { errorClass: 'InvalidResponseError', steps: [echoing((text) => ({ kind: 'respond', status: 200, body: `{"data": "${text}` }))], call: grant, options: { maxRetries: 0 } },
  { errorClass: 'GraphQLResponseError', steps: [echoing((text) => json({ data: null, errors: [{ message: text }] }))], call: grant },
  {
    errorClass: 'GraphQLResponseError',
    steps: [echoing((text) => json({ data: { createCouponGrant: { grant: { id: text, status: text, grantedAt: 1 }, created: true, errors: null } }, errors: [{ message: text, extensions: { code: 'RATE_LIMIT_EXCEEDED' } }] }))],
    call: grant,
  },
  {
    errorClass: 'BulkChunkError',
    steps: [
      echoing((text) => json({ data: { bulkCancelConsultingMeetings: { allSucceeded: true, errors: [text], results: [{ meeting: { id: text, title: text }, errors: null }, { meeting: null, errors: [text] }] } } })),
      echoing((text) => ({ kind: 'respond', status: 503, body: text })),
    ],
    call: (admin) => admin.bulkCancelMeetings([COUPON_ID, 'm-2', 'm-3']),
    options: { bulkChunkSize: 2 },
  },
  {
    errorClass: 'RedirectError',
    steps: [echoing((text) => ({ kind: 'respond', status: 307, headers: { Location: `http://evil.example/${encodeURIComponent(text)}?key=${API_KEY}` }, body: text }))],
    call: grant,
  },
  { errorClass: 'InvalidInputError', steps: [], call: (admin) => admin.createCoupon({ name: EMAIL, couponType: 'percentage', amount: 500, description: API_KEY }) },
];

interface LogLine {
  level: string;
  message: string;
  data: Record<string, unknown> | undefined;
}

function capturingLogger(lines: LogLine[]): Logger {
  const at = (level: string) => (message: string, data?: Record<string, unknown>) => lines.push({ level, message, data });
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

const LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error'];
const cases = LEVELS.flatMap((level) => SCENARIOS.map((scenario, index) => [level, `${scenario.errorClass}#${index}`, scenario] as const));
/** Levels of the lines captured at logLevel 'debug', over every scenario (so the checks cannot pass on silence). */
const seenAtDebug = new Set<string>();

describe('the key, member emails and other variables never reach errors or logs', () => {
  it.each(cases)('logLevel %s, %s: not in message, stack, JSON.stringify or util.inspect (key), nor in any log line or its data', async (level, _name, scenario) => {
    server.script(...scenario.steps.map(withHostileHeaders));
    const lines: LogLine[] = [];
    const admin = faultClient(server, { logger: capturingLogger(lines), logLevel: level, ...scenario.options });
    const error = await scenario.call(admin).then(
      () => {
        throw new Error('expected the call to fail');
      },
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AdminApiError);
    expect((error as Error).name).toBe(scenario.errorClass);
    const { message, stack = '' } = error as Error;
    const json = JSON.stringify(error);
    const inspected = inspect(error, { depth: 20, showHidden: true });
    for (const text of [message, stack, json, inspected]) expect(text).not.toContain(API_KEY);
    for (const text of [message, stack, json]) for (const value of VARIABLES) expect(text).not.toContain(value);
    // The new fields: present whenever there was a response (so the checks above saw them), never with the key.
    const { status, headers, requestId } = error as AdminApiError;
    if (status !== undefined) {
      expect(headers).toMatchObject({ 'x-request-id': '[redacted]', 'set-cookie': '[redacted]', authorization: '[redacted]', '[redacted]': 'a header named like the key', 'content-location': '[redacted]' });
      expect(requestId).toBe('[redacted]');
      expect(JSON.parse(json)).toHaveProperty('headers');
    }
    for (const text of [JSON.stringify(headers ?? {}), requestId ?? '']) expect(text).not.toContain(API_KEY);

    const logged = lines.map((line) => `${line.message} ${JSON.stringify(line.data)}`).join('\n');
    for (const secret of [API_KEY, ...VARIABLES]) expect(logged).not.toContain(secret);
    if (level === 'error') expect(lines).toEqual([]); // the client has nothing to say at that level
    if (level === 'debug') for (const line of lines) seenAtDebug.add(line.level);
  });

  it('a successful call\'s withResponse() shows no key in its headers or request id either', async () => {
    server.script(withHostileHeaders(answerOk));
    const { response } = await grant(faultClient(server)).withResponse();
    expect(response.requestId).toBe('[redacted]');
    expect(response.headers).toMatchObject({ 'x-echo': '[redacted]', 'set-cookie': '[redacted]', authorization: '[redacted]', 'content-location': '[redacted]' });
    expect(inspect(response, { depth: 10 })).not.toContain(API_KEY);
  });

  it('at logLevel debug the scenarios above produced request/response (debug), retry (info) and rateLimited (warn) lines', () => {
    expect([...seenAtDebug].sort()).toEqual(['debug', 'info', 'warn']);
  });
});
