import type { Metafile } from './packed-package.js';

/** What a process loaded, in terms a reader can check against the architecture. */
export interface LoadedModules {
  /** The SDK's source modules inside the loaded dist files (e.g. `src/client/facade/admin-client.ts`). */
  sdkSources: string[];
  /** npm packages loaded besides the SDK (e.g. `graphql`, `@graphql-typed-document-node/core`). */
  packages: string[];
}

const SDK_DIR = '/node_modules/school-admin-sdk/';
const NODE_MODULES = '/node_modules/';

/**
 * Maps the files a probe reported to the SDK's sources (through esbuild's metafile of the build
 * whose output the process ran) and to the other packages they belong to.
 */
export function describeLoadedModules(files: readonly string[], metafile: Metafile): LoadedModules {
  const sdkSources = new Set<string>();
  const packages = new Set<string>();
  for (const file of files.map((path) => path.replaceAll('\\', '/'))) {
    const sdkAt = file.lastIndexOf(SDK_DIR);
    if (sdkAt >= 0) {
      const inside = file.slice(sdkAt + SDK_DIR.length);
      if (inside === 'package.json') continue;
      const output = metafile.outputs[inside];
      if (output === undefined) throw new Error(`Failed to map ${inside}: the build's metafile has no such output.`);
      for (const input of Object.keys(output.inputs)) sdkSources.add(input);
      continue;
    }
    const packageAt = file.lastIndexOf(NODE_MODULES);
    if (packageAt < 0) continue;
    const [scopeOrName = '', name = ''] = file.slice(packageAt + NODE_MODULES.length).split('/');
    packages.add(scopeOrName.startsWith('@') ? `${scopeOrName}/${name}` : scopeOrName);
  }
  return { sdkSources: [...sdkSources].sort(), packages: [...packages].sort() };
}
