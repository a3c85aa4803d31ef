import { describe } from 'vitest';
import { realServerSuite } from './suite.js';
import { apolloTarget } from './support/targets.js';

describe(`the SDK against ${apolloTarget.name} (stack traces off, unexpected errors masked by formatError)`, () => {
  realServerSuite(apolloTarget);
});
