import { readdirSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
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
  'otel/index': 'src/otel/index.ts',
};

/**
 * The journal of `grantCouponToMany` needs node:fs and node:zlib, which worker runtimes lack. The
 * library reaches it only through `import('#journal')`, the package's private import (package.json
 * `imports`): Node, Deno and Bun resolve it to the journal, worker and browser bundlers (conditions
 * `workerd`, `worker`, `browser`, `edge-light`) to a module whose `openJournal` refuses with a
 * clear error. So the main entry's import graph holds no Node-only module for a worker bundle.
 */
const JOURNAL_ENTRIES = {
  'internal/journal': 'src/workflows/journal.ts',
  'internal/journal-unavailable': 'src/workflows/journal-unavailable.ts',
};
const JOURNAL_IMPORT = '#journal';

/**
 * Every error module as an entry of its own (not exported; the main entry re-exports them): an
 * app that imports only errors (`import { CodedError, hasCode }`) then bundles those files, not the
 * client, whose top-level documents a bundler cannot drop.
 */
const ERROR_ENTRIES = Object.fromEntries(
  readdirSync('src/errors')
    .filter((file) => file.endsWith('.ts'))
    .map((file) => [`internal/errors/${file.replace(/\.ts$/, '')}`, `src/errors/${file}`]),
);

/**
 * Replaces grant-to-many's `import('./journal.js')` (sources and tests keep the plain file) by a
 * lazily loaded chunk that re-exports `#journal`, left external. Statically imported there, it
 * becomes `require('#journal')` in the CommonJS build, so CommonJS users get the CommonJS journal
 * and its errors are the same classes as the main entry's.
 */
const journalImport: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'journal-private-import',
  setup(build) {
    build.onResolve({ filter: /^\.\/journal\.js$/ }, (args) =>
      args.kind === 'dynamic-import' && /[\\/]src[\\/]workflows[\\/]grant-to-many\.ts$/.test(args.importer)
        ? { path: 'journal-loader', namespace: 'school-admin-journal' }
        : undefined,
    );
    build.onResolve({ filter: /^#journal$/ }, () => ({ path: JOURNAL_IMPORT, external: true }));
    build.onLoad({ filter: /.*/, namespace: 'school-admin-journal' }, () => ({ contents: `export { openJournal } from '${JOURNAL_IMPORT}';`, loader: 'js' }));
  },
};

/**
 * Writes bare built-in specifiers (`stream`, `events`) of bundled packages as `node:stream`, like
 * our own sources: the whole of dist/ names Node's built-ins the one way every runtime knows.
 */
const nodePrefix: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'node-prefix',
  setup(build) {
    const bare = new Set(builtinModules.filter((name) => !name.startsWith('_') && !name.startsWith('node:')));
    build.onResolve({ filter: /^[a-z_/]+$/ }, (args) => (bare.has(args.path) ? { path: `node:${args.path}`, external: true } : undefined));
  },
};

/**
 * The `school-admin` bin (dist/cli/main.js): ESM only, shebang kept (tsup makes a file starting
 * with `#!` executable). The packages only the CLI uses (commander, csv-parse,
 * csv-stringify) are devDependencies, so tsup bundles them into this file: a library install does
 * not download them. Built into its own folder, so its `--metafile` does not overwrite the library's.
 */
const CLI_ENTRIES = { main: 'src/cli/main.ts' };

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
  // Deno, Bun and workerd (nodejs_compat) know Node's built-ins by their `node:` names only.
  removeNodeProtocol: false,
  // tsup's own `clean` would race between the builds below; dist/ is emptied once instead.
  clean: false,
};

const library: Options = {
  ...shared,
  esbuildPlugins: [journalImport],
  dts: {
    entry: LIBRARY_ENTRIES,
    // TypeScript 6 deprecates `baseUrl`, which tsup's declaration build sets (TS5101 otherwise).
    compilerOptions: { ignoreDeprecations: '6.0' },
  },
};

export default defineConfig(() => {
  rmSync('dist', { recursive: true, force: true });
  return [
    { ...library, format: 'esm', entry: { ...LIBRARY_ENTRIES, ...JOURNAL_ENTRIES, ...ERROR_ENTRIES, 'internal/index': 'src/index.ts' } },
    { ...library, format: 'cjs', entry: { ...LIBRARY_ENTRIES, ...JOURNAL_ENTRIES, ...ERROR_ENTRIES, 'internal/index': 'src/index.ts' }, treeshake: true },
    {
      ...shared,
      outDir: 'dist/cli',
      format: 'esm',
      entry: CLI_ENTRIES,
      // One self-contained file: the CLI runs in its own process, so its copy of the library
      // classes never meets an integrator's.
      splitting: false,
      esbuildPlugins: [nodePrefix],
      // The bundled CommonJS packages require() Node built-ins, which an ES module must create.
      banner: { js: "import { createRequire as __schoolAdminCreateRequire } from 'node:module';\nconst require = __schoolAdminCreateRequire(import.meta.url);" },
    },
  ];
});
