import { describe, expect, it } from 'vitest';
import { AdminClient, NetworkError } from '../../src/index.js';
import { DEMO_API_KEY, DEMO_IDS, demoMemberEmail } from '../../src/testing/index.js';
import { mayHaveReachedServer } from '../../src/transport/network-failure.js';

describe("Deno's refused connection never reached the server", () => {
  // Deno 2.9.6 answers fetch('http://127.0.0.1:<closed port>/') with this error (no code anywhere).
  const denoRefused = (): TypeError =>
    new TypeError('fetch failed', {
      cause: new Error('error sending request for url (http://127.0.0.1:45831/): client error (Connect): tcp connect error: Connection refused (os error 111)'),
    });
  const denoClosedAfterSending = (): TypeError =>
    new TypeError('fetch failed', { cause: new Error('error sending request for url (http://127.0.0.1:45831/): client error (SendRequest): connection closed before message completed') });

  it('classes "client error (Connect)" as never connected, and a failure while sending as may-have-reached', () => {
    expect(mayHaveReachedServer(denoRefused())).toBe(false);
    expect(mayHaveReachedServer(denoClosedAfterSending())).toBe(true);
  });

  it('so a mutation refused at connect is a NetworkError with mayHaveReachedServer: false, and is sent again', async () => {
    let attempts = 0;
    const refusing: typeof globalThis.fetch = () => {
      attempts += 1;
      return Promise.reject(denoRefused());
    };
    const error = await new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: 'https://school.example', limits: false, fetch: refusing, maxRetries: 2, retryBaseDelayMs: 1, maxRetryDelayMs: 2 })
      .grantCoupon(DEMO_IDS.restrictedCouponId, { email: demoMemberEmail(7) })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ mayHaveReachedServer: false });
    expect(attempts).toBe(3);
  });
});
