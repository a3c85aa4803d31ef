import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe } from 'vitest';
import { conformanceSuite } from './suite.js';
import { mswTarget } from './support/targets.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('conformance through the SDK, via msw', () => {
  conformanceSuite(mswTarget(server));
});
