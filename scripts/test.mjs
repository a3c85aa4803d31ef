// `npm test`: the generated-code check and the type check run beside vitest rather than before
// it (on a 2-core machine the suites spend much of their time waiting on real rate-limit windows
// and child processes). The checks' output is held and printed after the suites, so it does not
// interleave with vitest's; the run fails if any of them fails. Arguments go to vitest.
import { spawn } from 'node:child_process';

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function run(command, args, { quiet, env = process.env }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', env });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

const started = Date.now();
const checks = [
  { name: 'generated code is fresh (graphql-codegen --check)', done: run(npx, ['graphql-codegen', '--config', 'codegen.ts', '--check'], { quiet: true }) },
  { name: 'types (tsc --noEmit)', done: run(npx, ['tsc', '--noEmit'], { quiet: true }) },
  // The options' type test again with exactOptionalPropertyTypes, as strict callers compile.
  { name: 'types under exactOptionalPropertyTypes (tsc -p test/types/tsconfig.exact-optional.json)', done: run(npx, ['tsc', '--noEmit', '-p', 'test/types/tsconfig.exact-optional.json'], { quiet: true }) },
];
const suites = await run(npx, ['vitest', 'run', ...process.argv.slice(2)], { quiet: false });
// Then the files that hold a run to a wall-clock bound, one at a time (test/support/measured-alone.ts).
const alone = await run(npx, ['vitest', 'run', '--passWithNoTests', ...process.argv.slice(2)], { quiet: false, env: { ...process.env, SCHOOL_ADMIN_MEASURED_ALONE: '1' } });
let failed = suites.code !== 0 || alone.code !== 0;
for (const check of checks) {
  const { code, output } = await check.done;
  if (code === 0) {
    process.stdout.write(` ✓ ${check.name}\n`);
  } else {
    failed = true;
    process.stdout.write(` ✗ ${check.name} failed:\n${output}\n`);
  }
}
process.stdout.write(` npm test: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
process.exit(failed ? 1 : 0);
