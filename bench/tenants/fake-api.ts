/**
 * The admin API as the tenants benchmark fakes it, in the benchmark's own process: a `fetch` that
 * answers every POST with one granted coupon after `delayMs` (a timer, no network), and notes when
 * each request arrived for which key, so that a run can be checked against every key's budget
 * afterwards (the server's sliding window). Its own memory is allocated up front (one slot per
 * request of the run), so heap figures measured around a run do not count it.
 */
const GRANTED = JSON.stringify({
  data: {
    createCouponGrant: {
      grant: { id: 'grant-1', status: 'active', userName: null, userEmail: null, grantedByName: null, grantedAt: 1_800_000_000, redeemedAt: null, revokedAt: null },
      created: true,
      errors: null,
    },
  },
});
const ANSWER_INIT: ResponseInit = { status: 200, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(GRANTED)) } };
const KEY_HEADER = 'x-service-api-key';

/** What the fake server saw. */
export interface FakeApi {
  /** Answers every request after the delay; notes its arrival while recording. */
  readonly fetch: typeof fetch;
  /** Whether arrivals are noted (off for the bare fetch rounds: nothing paces those). */
  recording: boolean;
  /** `performance.now()` of the first and the latest answer since the last {@link FakeApi.resetAnswers}. */
  readonly answers: { first: number; last: number; count: number };
  resetAnswers(): void;
  /**
   * Requests that arrived while `limit` others of the same key had arrived within the `windowMs`
   * before them (what a sliding-window server refuses), summed over the keys.
   */
  overLimit(limit: number, windowMs: number): number;
}

/** A fake API for `keys` (their index in the list names them) and at most `capacity` recorded requests. */
export function fakeApi(keys: readonly string[], capacity: number, delayMs: number): FakeApi {
  const keyIndex = new Map(keys.map((key, index) => [key, index]));
  const arrivedAt = new Float64Array(capacity);
  const arrivedFor = new Int32Array(capacity);
  let arrivals = 0;
  const answers = { first: Number.NaN, last: Number.NaN, count: 0 };
  const api: FakeApi = {
    recording: true,
    answers,
    resetAnswers() {
      answers.first = Number.NaN;
      answers.last = Number.NaN;
      answers.count = 0;
    },
    fetch: (_input, init) =>
      new Promise<Response>((resolve) => {
        if (api.recording) {
          const headers = init?.headers;
          const key = headers instanceof Headers ? headers.get(KEY_HEADER) : (headers as Record<string, string> | undefined)?.[KEY_HEADER];
          const index = keyIndex.get(key ?? '');
          if (index === undefined || arrivals >= capacity) throw new Error(`Failed to fake the API: an unknown key or more requests than the ${capacity} planned.`);
          arrivedAt[arrivals] = performance.now();
          arrivedFor[arrivals] = index;
          arrivals += 1;
        }
        setTimeout(() => {
          const now = performance.now();
          if (answers.count === 0) answers.first = now;
          answers.last = now;
          answers.count += 1;
          resolve(new Response(GRANTED, ANSWER_INIT));
        }, delayMs);
      }),
    overLimit(limit, windowMs) {
      const byKey: number[][] = keys.map(() => []);
      for (let index = 0; index < arrivals; index += 1) byKey[arrivedFor[index] as number]?.push(arrivedAt[index] as number);
      let over = 0;
      for (const times of byKey) {
        times.sort((a, b) => a - b);
        for (let index = limit; index < times.length; index += 1) if ((times[index] as number) - (times[index - limit] as number) < windowMs) over += 1;
      }
      return over;
    },
  };
  return api;
}

/**
 * One call as a client with no SDK makes it: the body serialised (the same document the SDK
 * sends), one `fetch`, the answer read and parsed. No pacing, no checks, no retries: the floor the
 * SDK's calls per second are compared with.
 */
export async function bareCall(fetcher: typeof fetch, endpoint: string, apiKey: string, document: string, variables: object): Promise<unknown> {
  const response = await fetcher(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [KEY_HEADER]: apiKey },
    body: JSON.stringify({ query: document, variables }),
  });
  return JSON.parse(await response.text()) as unknown;
}
