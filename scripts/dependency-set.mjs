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
 * Where the stack allows less than our range: graphql-request 7.4 (the newest) declares peer
 * graphql 14 - 16, so graphql 17 cannot be installed in this project. Apps on graphql 17 are
 * covered by the runtime suite (test/runtimes/peer-majors.test.ts), where npm nests graphql 16.
 */
const STACK_CAPS = { graphql: '^16.0.0' };

const which = process.argv[2];
if (which !== 'oldest' && which !== 'newest') {
  process.stderr.write('Usage: node scripts/dependency-set.mjs oldest|newest\n');
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const ranges = { ...manifest.dependencies, ...manifest.peerDependencies };
const specs = Object.entries(ranges).map(([name, range]) => {
  if (which === 'oldest') return `${name}@${semver.minVersion(range)}`;
  const cap = STACK_CAPS[name];
  const alternatives = range.split('||').map((part) => part.trim()).filter((part) => cap === undefined || semver.intersects(part, cap));
  return `${name}@${alternatives.at(-1)}`;
});
process.stdout.write(`${specs.join('\n')}\n`);
