/*
 * A mock server of one school for bulk grant runs (the CLI's, the SDK's, killed and resumed ones),
 * and what to read of a journal meanwhile. Free of vitest, so benchmarks use it too (bench/resume.ts);
 * test files get it through test/cli/support/grant-server.ts, with a workspace per file.
 */
import { readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { createSimulator, startMockServer, type MockServer, type Simulator } from '../../src/testing/index.js';

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

/**
 * The member lines (outcomes) a journal file holds now, the header and the records of what the
 * job spent (`sent`, `answered`, ...) left out; 0 while the file does not exist.
 */
export function journalOutcomes(journal: string): number {
  try {
    if (statSync(journal).size === 0) return 0;
  } catch {
    return 0;
  }
  return readFileSync(journal, 'utf8').split('\n').filter((line) => line.includes('"type":"outcome"')).length;
}

/** Resolves once the journal file holds more than `outcomes` member lines (a job running in another process). */
export function journalPast(journal: string, outcomes: number): Promise<void> {
  return new Promise((resolve) => {
    const poll = setInterval(() => {
      if (journalOutcomes(journal) > outcomes) {
        clearInterval(poll);
        resolve();
      }
    }, 10);
  });
}
