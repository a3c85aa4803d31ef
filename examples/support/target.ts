/**
 * Where the examples run: the built-in simulator on loopback (default, no key needed), or a real
 * server when ADMIN_API_URL and ADMIN_API_KEY are set. A real school's ids come from the
 * environment; the simulator's from its demo seed.
 */
import { AdminClient, type AdminClientOptions } from '../../src/index.js';
import { DEMO_API_KEY, DEMO_IDS, DEMO_DELETED_MEMBER_NUMBERS, demoMemberEmail, startMockServer, createSimulator, seedDemoSchool, type Simulator } from '../../src/testing/index.js';

/** The school data an example needs. */
export interface SchoolFixture {
  courseId: string;
  /** Emails of existing members to enroll and grant. */
  memberEmails: string[];
  /** A subscription that can be extended. */
  subscriptionId: string;
}

/** A connected example. */
export interface ExampleTarget {
  admin: AdminClient;
  mode: 'simulator' | 'server';
  baseUrl: string;
  school: SchoolFixture;
  /** Present in simulator mode, for showing what the service did. */
  simulator?: Simulator;
  close(): Promise<void>;
}

/** Environment variables a real server needs besides ADMIN_API_URL and ADMIN_API_KEY. */
const REAL_SERVER_VARIABLES = {
  ADMIN_DEMO_COURSE_ID: 'id of a course of the school',
  ADMIN_DEMO_MEMBER_EMAILS: 'comma-separated emails of existing members (a few hundred for the grant step)',
  ADMIN_DEMO_SUBSCRIPTION_ID: 'id of an active subscription whose period may be extended',
} as const;

/**
 * Connects to a real server (ADMIN_API_URL + ADMIN_API_KEY) or starts the simulator.
 * In simulator mode the window is scaled down (a self-hosted setting) so bulk steps finish fast.
 */
export async function connect(options: { simulatorWindowMs?: number; client?: Partial<AdminClientOptions> } = {}): Promise<ExampleTarget> {
  const url = process.env.ADMIN_API_URL;
  const key = process.env.ADMIN_API_KEY;
  if (url !== undefined && url !== '' && key !== undefined && key !== '') {
    const missing = Object.keys(REAL_SERVER_VARIABLES).filter((name) => !process.env[name]);
    if (missing.length > 0) {
      const help = missing.map((name) => `  ${name}: ${REAL_SERVER_VARIABLES[name as keyof typeof REAL_SERVER_VARIABLES]}`).join('\n');
      throw new Error(`Failed to start the example against ${url}: it needs ids of your school.\nSet:\n${help}`);
    }
    return {
      admin: new AdminClient({ apiKey: key, baseUrl: url, ...options.client }),
      mode: 'server',
      baseUrl: url,
      school: {
        courseId: process.env.ADMIN_DEMO_COURSE_ID as string,
        memberEmails: (process.env.ADMIN_DEMO_MEMBER_EMAILS as string).split(',').map((email) => email.trim()).filter(Boolean),
        subscriptionId: process.env.ADMIN_DEMO_SUBSCRIPTION_ID as string,
      },
      close: async () => undefined,
    };
  }
  const windowMs = options.simulatorWindowMs ?? 60_000;
  const simulator = createSimulator({ limits: { mutations: { limit: 200, windowMs }, queries: { limit: 600, windowMs } } });
  seedDemoSchool(simulator);
  const server = await startMockServer({ simulator });
  const deleted = new Set<number>(DEMO_DELETED_MEMBER_NUMBERS);
  return {
    admin: new AdminClient({
      apiKey: DEMO_API_KEY,
      baseUrl: server.url,
      limits: { mutations: { limit: 200, windowMs }, queries: { limit: 600, windowMs } },
      ...options.client,
    }),
    mode: 'simulator',
    baseUrl: server.url,
    simulator,
    school: {
      courseId: DEMO_IDS.courseIds[0],
      memberEmails: Array.from({ length: 500 }, (_, index) => index + 1).filter((n) => !deleted.has(n)).map((n) => demoMemberEmail(n)),
      subscriptionId: DEMO_IDS.subscriptionIds.active,
    },
    close: () => server.close(),
  };
}
