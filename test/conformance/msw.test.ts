import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe } from 'vitest';
import { conformanceSuite } from './suite.js';
import { mswTarget } from './support/targets.js';
import { listenOptions } from '../support/msw-listen.js';

const server = setupServer();
beforeAll(() => server.listen(listenOptions('error')));
afterAll(() => server.close());

describe('conformance through the SDK, via msw', () => {
  conformanceSuite(mswTarget(server));
});
