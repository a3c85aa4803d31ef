import { describe } from 'vitest';
import { conformanceSuite } from './suite.js';
import { httpTarget } from './support/targets.js';

describe('conformance through the SDK, over real HTTP on 127.0.0.1', () => {
  conformanceSuite(httpTarget);
});
