import { GraphQLClient } from './naive-client.js';
import { OPERATIONS } from '../../src/index.js';
import { API_KEY, COUPON_ID, memberEmail } from './setup.js';

/**
 * Another script using the same key, unannounced: it sends `perWindow` grants at the start of
 * every window, ignoring answers, until stopped.
 */
export function startForeignTraffic(url: string, perWindow: number, windowMs: number): () => Promise<void> {
  const client = new GraphQLClient(`${url}/admin/graphql`, { headers: { 'X-Service-API-Key': API_KEY } });
  const document = OPERATIONS.createCouponGrant.document;
  const inFlight = new Set<Promise<unknown>>();
  const burst = (): void => {
    for (let index = 0; index < perWindow; index += 1) {
      const call = client.request(document, { couponId: COUPON_ID, email: memberEmail(400 + index) }).catch(() => undefined);
      inFlight.add(call);
      void call.finally(() => inFlight.delete(call));
    }
  };
  burst();
  const timer = setInterval(burst, windowMs);
  return async () => {
    clearInterval(timer);
    await Promise.all(inFlight);
  };
}
