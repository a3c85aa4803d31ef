import { rmSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

/**
 * The package's entry points (package.json `exports`), by output path under dist/. Each is built
 * as ESM (`.js` + `.d.ts`) and CommonJS (`.cjs` + `.d.cts`).
 */
const LIBRARY_ENTRIES = {
  index: 'src/index.ts',
  'testing/index': 'src/testing/index.ts',
  'testing/msw': 'src/testing/msw.ts',
  'redis/index': 'src/redis/index.ts',
  'scheduling/index': 'src/scheduling/index.ts',
  'webhooks/index': 'src/webhooks/index.ts',
};

/** The `school-admin` bin: ESM only, shebang kept (tsup makes a file starting with `#!` executable). */
const CLI_ENTRIES = { 'cli/main': 'src/cli/main.ts' };

const shared: Options = {
  outDir: 'dist',
  platform: 'node',
  target: 'node20',
  // Shared chunks keep one copy of each class per format, so `instanceof AdminApiError` holds for
  // errors thrown by any entry (e.g. /scheduling's errors extend the main entry's base class).
  splitting: true,
  // dependencies and peerDependencies stay external (tsup's default); nothing is minified so that
  // stack traces read like the sources.
  minify: false,
  sourcemap: false,
  // tsup's own `clean` would race between the two builds below; dist/ is emptied once instead.
  clean: false,
  dts: {
    entry: LIBRARY_ENTRIES,
    // TypeScript 6 deprecates `baseUrl`, which tsup's declaration build sets (TS5101 otherwise).
    compilerOptions: { ignoreDeprecations: '6.0' },
  },
};

export default defineConfig(() => {
  rmSync('dist', { recursive: true, force: true });
  return [
    // The bin joins the ESM build so that it shares chunks with the library instead of a copy.
    { ...shared, format: 'esm', entry: { ...LIBRARY_ENTRIES, ...CLI_ENTRIES } },
    { ...shared, format: 'cjs', entry: LIBRARY_ENTRIES, treeshake: true },
  ];
});
