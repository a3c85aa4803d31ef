import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { createConsumerProject } from '../package/support/consumer-project.js';
import { buildAndPack } from '../package/support/packed-package.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A project with the packed tarball installed (its runtime dependencies only). */
    consumerDir: string;
    /** The packed tarball, for projects that install it next to other versions. */
    tarball: string;
  }
}

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Builds and packs the SDK once for every runtime test, and installs it into a consumer project. */
export default async function setup(project: TestProject): Promise<() => void> {
  const workDir = mkdtempSync(join(tmpdir(), 'school-admin-sdk-runtimes-'));
  const packed = await buildAndPack(projectRoot, workDir);
  const consumer = await createConsumerProject(projectRoot, workDir, 'runtime-consumer', 'module', packed);
  project.provide('consumerDir', consumer.dir);
  project.provide('tarball', packed.tarball);
  return () => rmSync(workDir, { recursive: true, force: true });
}
