import type { PermitStore } from '../../src/rate-limit/permit-store.js';
import type { Priority } from '../../src/rate-limit/priority.js';
import type { VirtualClock } from './virtual-clock.js';

/** One request of a simulated client. */
export interface SimulatedRequest {
  /** Pause before asking for a permit (after the previous response, or from the start). */
  thinkMs: number;
  /** From send to response. */
  latencyMs: number;
  /** Where in [send, response] the request reaches the server, in thousandths (1000 = at the response). */
  arrivalPermille: number;
}

/** Clients sharing one budget, each sending its requests one after another. */
export interface SimulationScenario {
  limit: number;
  windowMs: number;
  /** Longer than every latency: leases never end before the response. */
  leaseMs: number;
  clients: SimulatedRequest[][];
  /** The lane of each client (all interactive when absent); interactive clients name their queue. */
  lanes?: Priority[];
  /** The background reserve every background client asks with. */
  reserve?: number;
}

/** What the server saw. */
export interface SimulationOutcome {
  /** Virtual times at which requests reached the server. */
  arrivals: number[];
}

interface ClientState {
  readonly requests: readonly SimulatedRequest[];
  next: number;
  /** Identifies the current wait; a timer or wake-up carrying an older token is stale. */
  waitToken: number;
  stopWaking: (() => void) | undefined;
}

type SimulationEvent =
  | { kind: 'attempt'; at: number; order: number; client: number; token: number }
  | { kind: 'response'; at: number; order: number; client: number; permitId: string };

type Unordered<E> = E extends unknown ? Omit<E, 'order'> : never;
type NewEvent = Unordered<SimulationEvent>;

const MAX_EVENTS = 200_000;

/**
 * Runs `scenario` on virtual time the way the SDK's limiter uses a store: ask for a permit; when
 * refused, wait `retryAfterMs` or an `onRelease` wake-up, whichever comes first; send; release at
 * the response. Each client may use its own store (`storeFor`), as separate processes do.
 */
export async function simulate(
  scenario: SimulationScenario,
  storeFor: (client: number) => PermitStore,
  clock: VirtualClock,
  bucket: string,
): Promise<SimulationOutcome> {
  const { limit, windowMs, leaseMs } = scenario;
  const start = clock.now();
  const arrivals: number[] = [];
  const queue: SimulationEvent[] = [];
  let order = 0;
  const schedule = (event: NewEvent): void => {
    const ordered = { ...event, order: order++ } as SimulationEvent;
    // Keeps (at, order) ascending; events at one time run in the order they were scheduled.
    let index = queue.length;
    while (index > 0 && (queue[index - 1]?.at ?? 0) > ordered.at) index -= 1;
    queue.splice(index, 0, ordered);
  };
  const clients: ClientState[] = scenario.clients.map((requests, client) => {
    if (requests[0] !== undefined) schedule({ kind: 'attempt', at: start + requests[0].thinkMs, client, token: 0 });
    return { requests, next: 0, waitToken: 0, stopWaking: undefined };
  });

  for (let handled = 0; queue.length > 0; handled += 1) {
    if (handled > MAX_EVENTS) throw new Error('simulation did not finish: the store never lets the clients through');
    const event = queue.shift();
    if (event === undefined) break;
    clock.set(event.at);
    const state = clients[event.client];
    const store = storeFor(event.client);
    const request = state?.requests[state.next];
    if (state === undefined || request === undefined) continue;

    if (event.kind === 'response') {
      await store.release(bucket, event.permitId, windowMs);
      state.next += 1;
      const following = state.requests[state.next];
      if (following !== undefined) schedule({ kind: 'attempt', at: event.at + following.thinkMs, client: event.client, token: state.waitToken });
      continue;
    }
    if (event.token !== state.waitToken) continue;
    state.waitToken += 1;
    state.stopWaking?.();
    state.stopWaking = undefined;

    const lane = scenario.lanes?.[event.client];
    const result = await store.tryAcquire({
      bucket,
      limit,
      windowMs,
      leaseMs,
      ...(lane === undefined ? {} : { lane }),
      ...(lane === 'interactive' ? { waiter: `client-${event.client}` } : {}),
      ...(lane === 'background' && scenario.reserve !== undefined ? { reserve: scenario.reserve } : {}),
    });
    if (result.granted) {
      arrivals.push(event.at + Math.round((request.latencyMs * request.arrivalPermille) / 1000));
      schedule({ kind: 'response', at: event.at + request.latencyMs, client: event.client, permitId: result.permitId });
      continue;
    }
    if (!(result.retryAfterMs > 0)) throw new Error(`a refusal must name a wait above 0 ms, got ${result.retryAfterMs}`);
    const token = state.waitToken;
    schedule({ kind: 'attempt', at: event.at + result.retryAfterMs, client: event.client, token });
    state.stopWaking = store.onRelease?.(bucket, () => schedule({ kind: 'attempt', at: clock.now(), client: event.client, token }));
  }
  for (const state of clients) state.stopWaking?.();
  return { arrivals };
}

/**
 * The most arrivals the server sees in any sliding window (t - windowMs, t]: an arrival exactly
 * windowMs before another no longer counts with it.
 */
export function busiestWindow(arrivals: readonly number[], windowMs: number): number {
  const sorted = [...arrivals].sort((a, b) => a - b);
  let busiest = 0;
  let oldest = 0;
  for (let newest = 0; newest < sorted.length; newest += 1) {
    const newestAt = sorted[newest] ?? 0;
    while ((sorted[oldest] ?? Number.POSITIVE_INFINITY) <= newestAt - windowMs) oldest += 1;
    busiest = Math.max(busiest, newest - oldest + 1);
  }
  return busiest;
}
