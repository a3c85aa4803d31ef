/**
 * The time-to-exit probe of bench/queue.ts, in its own process: `rounds` times, 1,000 calls of a
 * client wait for a permit and are aborted. Prints the epoch ms of the last settle; the parent
 * measures how long the process stays alive after it.
 * Usage: node --import tsx bench/queue/exit-child.ts <current|baseline> [rounds=20]
 */
import { setMaxListeners } from 'node:events';
import { importSdk, type SdkModule, type SdkVersion } from '../support/sdk-versions.js';
import { stubClient } from './stub-api.js';

const sdk = await importSdk<SdkModule>((process.argv[2] ?? 'current') as SdkVersion, 'index.ts');
const admin = stubClient(sdk, 1, 1_000);
await admin.grantCoupon('coupon-1', { userId: 'user-0' });
for (let round = 0; round < Number(process.argv[3] ?? 20); round += 1) {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal); // one signal for 1,000 calls, on purpose
  const calls = Array.from({ length: 1_000 }, (_, index) => admin.grantCoupon('coupon-1', { userId: `user-${index + 1}` }, { signal: controller.signal }).catch(() => undefined));
  setTimeout(() => controller.abort(), 10);
  await Promise.all(calls);
}
process.stdout.write(`${JSON.stringify({ settledAt: Date.now() })}\n`);
