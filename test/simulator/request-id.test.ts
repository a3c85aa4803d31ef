import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient, CodedError } from '../../src/index.js';
import { createSimulator, DEMO_API_KEY, DEMO_IDS, REQUEST_ID_HEADER, seedDemoSchool, startMockServer, type Simulator } from '../../src/testing/index.js';
import { simulatorHandlers } from '../../src/testing/msw.js';
import { listenOptions } from '../support/msw-listen.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const COUPON = { name: 'Request ids', couponType: 'percentage', amount: 5 } as const;

/** How a test reaches a simulator: the loopback server, or msw in process. */
interface Transport {
  name: string;
  connect(simulator: Simulator): Promise<{ baseUrl: string; close(): Promise<void> }>;
}

const msw = setupServer();
// The loopback server's requests pass through untouched.
beforeAll(() => msw.listen(listenOptions('bypass')));
afterAll(() => msw.close());

const TRANSPORTS: Transport[] = [
  {
    name: 'startMockServer (loopback HTTP)',
    connect: async (simulator) => {
      const server = await startMockServer({ simulator, port: 0 });
      return { baseUrl: server.url, close: () => server.close() };
    },
  },
  {
    name: 'simulatorHandlers (msw)',
    connect: async (simulator) => {
      msw.use(...simulatorHandlers(simulator, 'https://school.example'));
      return { baseUrl: 'https://school.example', close: async () => msw.resetHandlers() };
    },
  },
];

describe.each(TRANSPORTS)('the simulator sends a request id ($name)', (transport) => {
  it(`every answer carries a fresh ${REQUEST_ID_HEADER}, which withResponse() reads as response.requestId and the request log records`, async () => {
    const simulator = createSimulator();
    seedDemoSchool(simulator);
    const connection = await transport.connect(simulator);
    try {
      const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: connection.baseUrl, limits: false });
      const first = await admin.createCoupon(COUPON).withResponse();
      const second = await admin.createCoupon(COUPON).withResponse();
      expect(first.response.requestId).toMatch(UUID);
      expect(second.response.requestId).toMatch(UUID);
      expect(second.response.requestId).not.toBe(first.response.requestId);
      expect(simulator.requestLog().map((entry) => entry.requestId)).toEqual([first.response.requestId, second.response.requestId]);
    } finally {
      await connection.close();
    }
  });

  it('errors carry it too: a coded error and a 401 (quote it to support)', async () => {
    const simulator = createSimulator();
    seedDemoSchool(simulator);
    const connection = await transport.connect(simulator);
    try {
      const coded = await new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: connection.baseUrl, limits: false })
        .updateCoupon('00000000-0000-4000-8000-00000000dead', { active: false })
        .catch((caught: unknown) => caught);
      expect(coded).toBeInstanceOf(CodedError);
      expect((coded as CodedError).requestId).toMatch(UUID);
      const refused = await new AdminClient({ apiKey: 'sk_live_unknown_key_0000000000', baseUrl: connection.baseUrl, limits: false })
        .grantCoupon(DEMO_IDS.restrictedCouponId, { userId: DEMO_IDS.ownerId })
        .catch((caught: unknown) => caught);
      expect(refused).toMatchObject({ name: 'AuthenticationError', requestId: expect.stringMatching(UUID) });
      expect(simulator.requestLog().map((entry) => entry.requestId)).toEqual([(coded as CodedError).requestId, (refused as CodedError).requestId]);
    } finally {
      await connection.close();
    }
  });
});
