import { afterEach, beforeEach } from 'vitest';
import { AdminClient, CodedError } from '../../../src/index.js';
import { createManualClock, createSimulator, type ManualClock, type Simulator, type SimulatorOptions } from '../../../src/testing/index.js';
import { NOW_MS, addMeeting, seedConformanceSchool, seedOtherSchool, type ConformanceSchool } from './fixture.js';
import type { ConformanceTarget, Connection } from './targets.js';

/** Everything one conformance test works with. */
export interface World {
  sim: Simulator;
  clock: ManualClock;
  /** The school the client's key belongs to. */
  s: ConformanceSchool;
  /** Another school (isolation). */
  other: ReturnType<typeof seedOtherSchool>;
  /** The SDK, pacing off and no retries (the suite tests the server, not the client's pacing). */
  client: AdminClient;
  baseUrl: string;
  /** Sends any document through `client.request()` (for rules the client also checks locally). */
  send(document: string | { toString(): string }, variables?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** A future meeting of the default-mode service (seeded, no API call). */
  meeting(overrides?: Parameters<typeof addMeeting>[2]): ReturnType<typeof addMeeting>;
  /** A client with another key. */
  clientWith(apiKey: string): AdminClient;
}

/**
 * Registers hooks that give each test a fresh simulator (manual clock, conformance school and
 * another school) reached through `target`. `options` may change the simulator's options.
 */
export function useWorld(target: ConformanceTarget, options: SimulatorOptions = { limits: false }): () => World {
  let world: World | undefined;
  let connection: Connection | undefined;
  beforeEach(async () => {
    const clock = createManualClock(NOW_MS);
    const sim = createSimulator({ ...options, clock });
    const s = seedConformanceSchool(sim);
    const other = seedOtherSchool(sim);
    connection = await target.connect(sim);
    const { baseUrl } = connection;
    const clientWith = (apiKey: string) => new AdminClient({ apiKey, baseUrl, limits: false, maxRetries: 0 });
    const client = clientWith(s.key);
    world = {
      sim,
      clock,
      s,
      other,
      client,
      baseUrl,
      clientWith,
      send: (document, variables) => client.request(String(document).trimStart(), variables),
      meeting: (overrides) => addMeeting(s.school, s.defaultService.id, overrides),
    };
  });
  afterEach(async () => {
    await connection?.close();
    connection = undefined;
    world = undefined;
  });
  return () => {
    if (!world) throw new Error('The world exists only inside a test.');
    return world;
  };
}

/** The error of class `kind` a call rejects with (fails the test for anything else). */
export async function rejection<T extends Error>(call: Promise<unknown>, kind: abstract new (...args: never[]) => T): Promise<T> {
  try {
    await call;
  } catch (error) {
    if (error instanceof kind) return error;
    throw error;
  }
  throw new Error(`Expected the call to fail with ${kind.name}, but it succeeded.`);
}

/** Asserts the call fails with a coded error from the server (not a local check) and returns it. */
export async function serverCode(call: Promise<unknown>, code: string): Promise<CodedError> {
  const error = await rejection(call, CodedError);
  if (error.code !== code || error.local) {
    throw new Error(`Expected server code ${code}, got ${error.code}${error.local ? ' (local)' : ''}: ${error.message}`);
  }
  return error;
}
