import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { parse } from 'csv-parse/sync';
import { createSimulator, startMockServer, type MockServer, type Simulator } from '../../../src/testing/index.js';

/** A mock server with one school of live members and a restricted coupon, for CLI runs. */
export interface GrantServer {
  server: MockServer;
  simulator: Simulator;
  couponId: string;
  apiKey: string;
  emails: string[];
  /** ADMIN_API_URL and ADMIN_API_KEY of this server. */
  env: Record<string, string>;
  /** Active (not revoked) grants of the coupon, per member email. */
  grantsPerEmail(): Map<string, number>;
}

/** `count` live members `member-00001@cli.example`...; mutations limited to `limit` per `windowMs`. */
export async function startGrantServer(count: number, budget: { limit: number; windowMs: number }): Promise<GrantServer> {
  const simulator = createSimulator({ limits: { mutations: budget, queries: { limit: 600, windowMs: 60_000 } } });
  const school = simulator.addSchool({ name: 'CLI School' });
  const members = school.addMembers(count, (index) => ({ email: `member-${String(index + 1).padStart(5, '0')}@cli.example` }));
  const coupon = school.addCoupon({ name: 'Alumni', restricted: true });
  const apiKey = school.addApiKey();
  const server = await startMockServer({ simulator });
  const emailById = new Map(members.map((member) => [member.id, member.email]));
  return {
    server,
    simulator,
    couponId: coupon.id,
    apiKey,
    emails: members.map((member) => member.email),
    env: { ADMIN_API_URL: server.url, ADMIN_API_KEY: apiKey },
    grantsPerEmail() {
      const counts = new Map<string, number>();
      for (const grant of simulator.school().tables.grants.values()) {
        if (grant.couponId !== coupon.id || grant.status === 'revoked') continue;
        const email = emailById.get(grant.userId) ?? grant.userId;
        counts.set(email, (counts.get(email) ?? 0) + 1);
      }
      return counts;
    },
  };
}

/** Writes a members CSV: a header, then one line per email (extra raw lines appended as given). */
export async function writeMembersCsv(path: string, emails: readonly string[], extraLines: readonly string[] = []): Promise<void> {
  await writeFile(path, ['email', ...emails, ...extraLines].join('\n') + '\n');
}

/** The records of a CSV report, keyed by its header. */
export function reportRows(text: string): Array<Record<string, string>> {
  return parse(text, { columns: true }) as Array<Record<string, string>>;
}

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

/** Resolves once the journal file holds more than `lines` lines (a job running in another process). */
export function journalPast(journal: string, lines: number): Promise<void> {
  const size = (): number => {
    try {
      return statSync(journal).size;
    } catch {
      return 0;
    }
  };
  return new Promise((resolve) => {
    const poll = setInterval(() => {
      if (size() > 0 && readFileSync(journal, 'utf8').split('\n').length > lines) {
        clearInterval(poll);
        resolve();
      }
    }, 10);
  });
}
