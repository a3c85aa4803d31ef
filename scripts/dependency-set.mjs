#!/usr/bin/env node
// Prints the package specs CI installs (npm install --no-save) before running the suite:
//   oldest  the lowest version each runtime dependency and peer range in package.json accepts
//           (run on Node 20, the oldest Node the package supports);
//   newest  the newest major each range accepts (its last `||` alternative), within what the rest
//           of the stack allows; npm takes the newest version of that major (install with Node 24's
//           npm: p-retry 9 and msw 3 declare Node >= 22). A single major, because npm keeps an
//           installed version that satisfies a wider range (msw 2.15 for `^2.2.3 || ^3.0.0`).
// Usage: mapfile -t specs < <(node scripts/dependency-set.mjs oldest)   (one spec per line)
import { readFileSync } from 'node:fs';
import semver from 'semver';

/**
 * Where the stack allows less than our range (name -> the range it allows). None now: graphql was
 * capped at ^16 while graphql-request (peer graphql 14 - 16) was a dependency. Without it the
 * newest leg runs graphql 17: @graphql-codegen 7.x and its plugins declare peer graphql up to
 * ^17, msw 3 peer graphql >= 16 (msw 2 depends on graphql ^16 and nests its own). Checked
 * 2026-11-24 on Node 24 with graphql 17.1.0, msw 3.0.5, p-retry 9, ioredis 6: codegen --check
 * (identical output), tsc and the whole vitest suite pass; on Node 22 the client, simulator and
 * conformance suites. Apps on graphql 17 share the SDK's copy (test/runtimes/peer-majors.test.ts).
 */
const STACK_CAPS = {};

/**
 * Development packages installed with a peer's newest version, because their own peer range is
 * tied to its minor: the OpenTelemetry JS SDK 2 (what runs on Node 20, and what package.json pins)
 * accepts @opentelemetry/api below 1.10 only, and the SDK 3 (Node >= 22.15) 1.10 only. The newest
 * leg runs test/otel with the current SDK, as integrators on Node 22 and 24 install it.
 */
const NEWEST_COMPANIONS = {
  '@opentelemetry/api': [
    '@opentelemetry/sdk-trace@latest',
    '@opentelemetry/sdk-metrics@latest',
    '@opentelemetry/context-async-hooks@latest',
    '@opentelemetry/core@latest',
    '@opentelemetry/instrumentation@latest',
    '@opentelemetry/instrumentation-undici@latest',
    '@opentelemetry/sdk-node@latest',
    '@opentelemetry/exporter-trace-otlp-http@latest',
  ],
};

/**
 * Peers whose older major is tested under an alias devDependency beside the newer (name -> the
 * older major's range -> the alias): test/redis runs node-redis 5 as `redis-v5` and 6 as `redis`.
 * The oldest leg installs each major's lowest version under its own name, so the tests written for
 * one major never run another (redis@5.0.0 as `redis` failed the node-redis 6 tests).
 */
const MAJOR_ALIASES = { redis: { '^5.0.0': 'redis-v5' } };

const which = process.argv[2];
if (which !== 'oldest' && which !== 'newest') {
  process.stderr.write('Usage: node scripts/dependency-set.mjs oldest|newest\n');
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const ranges = { ...manifest.dependencies, ...manifest.peerDependencies };
const specs = Object.entries(ranges).map(([name, range]) => {
  if (which === 'oldest') {
    const aliases = MAJOR_ALIASES[name];
    if (aliases === undefined) return `${name}@${semver.minVersion(range)}`;
    const alternatives = range.split('||').map((part) => part.trim());
    const own = alternatives.filter((part) => aliases[part] === undefined);
    const aliased = alternatives.filter((part) => aliases[part] !== undefined).map((part) => `${aliases[part]}@npm:${name}@${semver.minVersion(part)}`);
    return [`${name}@${semver.minVersion(own.join(' || '))}`, ...aliased].join('\n');
  }
  const cap = STACK_CAPS[name];
  const alternatives = range.split('||').map((part) => part.trim()).filter((part) => cap === undefined || semver.intersects(part, cap));
  return `${name}@${alternatives.at(-1)}`;
});
if (which === 'newest') for (const name of Object.keys(ranges)) specs.push(...(NEWEST_COMPANIONS[name] ?? []));
process.stdout.write(`${specs.join('\n')}\n`);
