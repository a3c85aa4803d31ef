import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startGrantServer, type GrantServer } from '../../support/grant-school-server.js';

export { journalOutcomes, journalPast, reportRows, startGrantServer, writeMembersCsv, type GrantServer } from '../../support/grant-school-server.js';

/** A grant server and a scratch folder for one test file, made before its tests and removed after. */
export interface GrantWorkspace {
  readonly dir: string;
  readonly target: GrantServer;
}

/**
 * Registers `beforeAll`/`afterAll` that start {@link startGrantServer} with `count` members and
 * `budget`, and make a temporary folder named from `prefix`; both are gone after the file's tests.
 */
export function useGrantWorkspace(prefix: string, count: number, budget: { limit: number; windowMs: number }): GrantWorkspace {
  let dir: string | undefined;
  let target: GrantServer | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
    target = await startGrantServer(count, budget);
  });
  afterAll(async () => {
    await target?.server.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });
  const made = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useGrantWorkspace: used outside a test of the file that called it');
    return value;
  };
  return {
    get dir() {
      return made(dir);
    },
    get target() {
      return made(target);
    },
  };
}
