/**
 * One process of the two-process QoS scenario, sharing the budget through Redis. Line protocol:
 * prints `{"ready":true}`; on `go` the bulk role runs its work and prints its ProcessRun, the
 * interactive role starts its calls and prints `{"started":true}`; on `stop` the interactive role
 * finishes its calls and prints its ProcessRun; `close` ends the process.
 * Usage: node --import tsx bench/qos/worker.ts <bulk|interactive> <current|baseline> <url> <meetingId> <redisUrl> <reserve|->
 */
import { createInterface } from 'node:readline';
import { importSdk, type RedisModule, type SdkModule, type SdkVersion } from '../support/sdk-versions.js';
import { benchClient, runBulk, startInteractive } from './runners.js';

const [role, version, url, meetingId, redisUrl, reserveArgument] = process.argv.slice(2);
if (url === undefined || meetingId === undefined || redisUrl === undefined) throw new Error('usage: worker.ts <bulk|interactive> <version> <url> <meetingId> <redisUrl> <reserve|->');
const sdk = await importSdk<SdkModule>(version as SdkVersion, 'index.ts');
const { createRedisPermitStore } = await importSdk<RedisModule>(version as SdkVersion, 'redis/index.ts');
const store = createRedisPermitStore(redisUrl);
const { admin, run } = benchClient(sdk, url, store, reserveArgument === '-' || reserveArgument === undefined ? undefined : Number(reserveArgument));
const say = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value)}\n`);

say({ ready: true });
let interactive: { stop(): Promise<void> } | undefined;
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'go' && role === 'bulk') {
    await runBulk(admin, run, 'grant-to-many');
    say(run);
  } else if (line === 'go') {
    interactive = startInteractive(admin, run, meetingId);
    say({ started: true });
  } else if (line === 'stop') {
    await interactive?.stop();
    say(run);
  } else if (line === 'close') {
    break;
  }
}
await store.close();
