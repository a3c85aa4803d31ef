import { describe, expect, it } from 'vitest';
import { AdminClient } from '../../src/index.js';

const GRANTED = JSON.stringify({ data: { createCouponGrant: { grant: { id: 'g', status: 'granted', userName: null, userEmail: null, grantedByName: null, grantedAt: 1, redeemedAt: null, revokedAt: null }, created: true, errors: null } } });

/** Two servers: a.example states a budget of 2 per minute on every answer; b.example states none. */
function twoServers() {
  const arrivals: string[] = [];
  const fetchStub: typeof fetch = async (input) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    arrivals.push(url.host);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (url.host === 'a.example') headers['RateLimit-Policy'] = '"default";q=2;w=60';
    return new Response(GRANTED, { status: 200, headers });
  };
  const client = (apiKey: string, host: string) => new AdminClient({ apiKey, baseUrl: `https://${host}`, fetch: fetchStub });
  return { arrivals, client };
}

/** Settles the calls, or says how many were still waiting after `ms`. */
async function within(ms: number, calls: Promise<unknown>[]): Promise<number> {
  let settled = 0;
  for (const call of calls) void call.then(() => (settled += 1));
  await Promise.race([Promise.all(calls), new Promise((resolve) => setTimeout(resolve, ms))]);
  return calls.length - settled;
}

describe('the default store: "one per process", per API endpoint (what a server taught belongs to that server)', () => {
  it('a budget one server stated does not slow the clients of the same key at another server', async () => {
    const { arrivals, client } = twoServers();
    const key = `sk_live_default_store_${Date.now()}`;
    await client(key, 'a.example').grantCoupon('c-1', { userId: 'u-1' });
    const other = client(key, 'b.example');
    // Before the store was per endpoint, b.example's clients went at a.example's 2 per minute: 1 of 5 sent in 2 s.
    expect(await within(2_000, Array.from({ length: 5 }, () => other.grantCoupon('c-1', { userId: 'u-1' })))).toBe(0);
    expect(arrivals.filter((host) => host === 'b.example')).toHaveLength(5);
  });

  it('two clients of one key at one server share it: the second goes at the budget the server stated to the first', async () => {
    const { arrivals, client } = twoServers();
    const key = `sk_live_default_store_shared_${Date.now()}`;
    await client(key, 'a.example').grantCoupon('c-1', { userId: 'u-1' });
    const second = client(key, 'a.example');
    const calls = Array.from({ length: 3 }, () => second.grantCoupon('c-1', { userId: 'u-1' }, { signal: AbortSignal.timeout(1_000) }).catch(() => undefined));
    await Promise.all(calls);
    // 2 per minute, 1 already spent by the first client: the second sends 1 and waits with the rest.
    expect(arrivals).toEqual(['a.example', 'a.example']);
  });
});
