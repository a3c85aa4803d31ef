export { AdminClient, CodedError } from '../../../src/index.js';
export { DEMO_API_KEY as DEMO_API_KEY_FOR_TESTS } from '../../../src/testing/index.js';
