/**
 * `npm run examples`: runs every example (and the demo) one after the other, each in its own
 * process, against the simulator by default or the server named by ADMIN_API_URL + ADMIN_API_KEY.
 * Exits non-zero when one fails.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const examples = readdirSync(here).filter((name) => name.endsWith('.ts') && name !== 'run-all.ts').sort();
const failed: string[] = [];
for (const name of examples) {
  console.log(`\n=== examples/${name}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', `${here}${name}`], { stdio: 'inherit' });
  if (run.status !== 0) failed.push(name);
}
console.log(failed.length === 0 ? `\nAll ${examples.length} examples succeeded.` : `\nFailed: ${failed.join(', ')}`);
process.exitCode = failed.length === 0 ? 0 : 1;
