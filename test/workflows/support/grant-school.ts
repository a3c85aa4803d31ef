import { AdminClient, type AdminClientOptions } from '../../../src/index.js';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../../src/testing/index.js';

/** A school with members and a restricted coupon, and a client that calls the simulator in-process. */
export interface GrantSchool {
  simulator: Simulator;
  admin: AdminClient;
  couponId: string;
  /** Emails of the live members, in order. */
  emails: string[];
  /** Ids of the live members, in order. */
  userIds: string[];
  /** Email of a deleted member (grants fail with ENROLLMENT-002). */
  deletedEmail: string;
  /** Active grants of the coupon per member id. */
  activeGrantsByUser(): Map<string, number>;
}

/** The email of generated member `n`. */
export const memberEmail = (n: number): string => `member-${String(n).padStart(5, '0')}@grant.example`;

/** Options of {@link grantSchool}. */
export interface GrantSchoolOptions {
  simulator?: SimulatorOptions;
  client?: Partial<AdminClientOptions>;
  /** Asked per request: true fails it as a refused connection (ECONNREFUSED), before the simulator sees it. */
  refused?: (variables: Record<string, unknown>) => boolean;
}

/**
 * Seeds `members` live members (plus one deleted), a restricted coupon and a key; the client's
 * fetch hands each request straight to `simulator.handle()` (no network).
 */
export function grantSchool(members: number, options: GrantSchoolOptions = {}): GrantSchool {
  const simulator = createSimulator({ limits: false, ...options.simulator });
  const school = simulator.addSchool({ name: 'Grant School' });
  const records = school.addMembers(members, (index) => ({ email: memberEmail(index + 1) }));
  const deletedEmail = 'gone@grant.example';
  school.addMember({ email: deletedEmail, deleted: true });
  const coupon = school.addCoupon({ name: 'Alumni', restricted: true });
  const apiKey = school.addApiKey();
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (options.refused?.((JSON.parse(String(init?.body ?? '{}')) as { variables?: Record<string, unknown> }).variables ?? {}) === true) {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) });
    }
    const answer = await simulator.handle({
      method: init?.method ?? 'POST',
      url: String(input),
      headers: new Headers(init?.headers),
      body: String(init?.body ?? ''),
    });
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  };
  const admin = new AdminClient({ apiKey, baseUrl: 'http://127.0.0.1:1', fetch, limits: false, retryBaseDelayMs: 1, ...options.client });
  return {
    simulator,
    admin,
    couponId: coupon.id,
    emails: records.map((record) => record.email),
    userIds: records.map((record) => record.id),
    deletedEmail,
    activeGrantsByUser() {
      const counts = new Map<string, number>();
      for (const grant of simulator.school().tables.grants.values()) {
        if (grant.couponId === coupon.id && grant.status !== 'revoked') counts.set(grant.userId, (counts.get(grant.userId) ?? 0) + 1);
      }
      return counts;
    },
  };
}
