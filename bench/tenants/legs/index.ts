import { ioredisLeg } from './ioredis.js';
import type { StoreLeg } from './leg.js';
import { memoryLeg } from './memory.js';

/** Every store the tenants benchmark knows, by name; the default run takes them all, in this order. */
export const LEGS: Readonly<Record<string, StoreLeg>> = {
  [memoryLeg.name]: memoryLeg,
  [ioredisLeg.name]: ioredisLeg,
};
