import { describe } from 'vitest';
import { realServerSuite } from './suite.js';
import { yogaTarget } from './support/targets.js';

describe(`the SDK against ${yogaTarget.name} (masked errors, GraphQL-over-HTTP status codes)`, () => {
  realServerSuite(yogaTarget);
});
