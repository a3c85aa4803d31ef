/**
 * The admin API faked in the benchmark's own process: a `fetch` that answers every POST with one
 * granted coupon after `delayMs` (a timer, no network), noting each arrival per key so that a run
 * can be checked against every key's budget afterwards (the server's sliding window). Its arrays
 * are allocated up front, so heap figures measured around a run do not count it.
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
const ANSWER_INIT: ResponseInit = { status: 200, headers: { 'content-type': 'application/json' } };
const KEY_HEADER = 'x-service-api-key';

export interface FakeApi {
  readonly fetch: typeof fetch;
  /** Whether arrivals are noted (off for bare fetch rounds). */
  recording: boolean;
  /** `performance.now()` of the latest answer. */
  readonly lastAnswerAt: () => number;
  /** Arrivals over a key's `limit` in any sliding `windowMs`, summed over the keys. */
  overLimit(limit: number, windowMs: number): number;
}

function keyOf(init: RequestInit | undefined): string | undefined {
  const headers = init?.headers;
  if (headers instanceof Headers) return headers.get(KEY_HEADER) ?? undefined;
  return (headers as Record<string, string> | undefined)?.[KEY_HEADER];
}

export function fakeApi(keys: readonly string[], capacity: number, delayMs: number): FakeApi {
  const keyIndex = new Map(keys.map((key, index) => [key, index]));
  const arrivedAt = new Float64Array(capacity);
  const arrivedFor = new Int32Array(capacity);
  let arrivals = 0;
  let lastAnswerAt = 0;
  const api: FakeApi = {
    recording: true,
    lastAnswerAt: () => lastAnswerAt,
    fetch: (_input, init) =>
      new Promise<Response>((resolve, reject) => {
        if (api.recording) {
          const index = keyIndex.get(keyOf(init) ?? '');
          if (index === undefined || arrivals >= capacity) {
            reject(new Error(`Failed to fake the API: an unknown key or more than the ${capacity} requests planned.`));
            return;
          }
          arrivedAt[arrivals] = performance.now();
          arrivedFor[arrivals] = index;
          arrivals += 1;
        }
        setTimeout(() => {
          lastAnswerAt = performance.now();
          resolve(new Response(GRANTED, ANSWER_INIT));
        }, delayMs);
      }),
    overLimit(limit, windowMs) {
      const perKey = new Map<number, number[]>();
      for (let index = 0; index < arrivals; index += 1) {
        const key = arrivedFor[index] as number;
        let list = perKey.get(key);
        if (list === undefined) perKey.set(key, (list = []));
        list.push(arrivedAt[index] as number);
      }
      let over = 0;
      for (const list of perKey.values()) {
        list.sort((a, b) => a - b);
        for (let index = limit; index < list.length; index += 1) if ((list[index] as number) - (list[index - limit] as number) < windowMs) over += 1;
      }
      return over;
    },
  };
  return api;
}

/** One call as bare `fetch` + `JSON.parse` makes it: the baseline of calls per second. */
export async function bareCall(fetcher: typeof fetch, url: string, key: string, variables: Record<string, unknown>): Promise<unknown> {
  const response = await fetcher(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [KEY_HEADER]: key },
    body: JSON.stringify({ query: 'mutation Grant($couponId: ID!, $userId: ID) { createCouponGrant(couponId: $couponId, userId: $userId) { created } }', variables }),
  });
  return JSON.parse(await response.text()) as unknown;
}
