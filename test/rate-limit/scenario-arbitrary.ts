import fc from 'fast-check';
import type { SimulatedRequest, SimulationScenario } from './server-arrival-simulation.js';

/** Bounds of {@link scenarioArbitrary}. */
export interface ScenarioBounds {
  maxClients: number;
  maxRequestsPerClient: number;
  maxLimit: number;
}

/** A Pareto tail index near 1: most requests are quick, a few take many windows' worth of time. */
const PARETO_ALPHA = 1.1;

/** Adds a random lane per client and a random background reserve to the scenarios of `scenarios`. */
export function withLanes(scenarios: fc.Arbitrary<SimulationScenario>): fc.Arbitrary<SimulationScenario> {
  return scenarios.chain((scenario) =>
    fc.record({
      lanes: fc.array(fc.constantFrom('interactive' as const, 'background' as const), { minLength: scenario.clients.length, maxLength: scenario.clients.length }),
      reserve: fc.integer({ min: 0, max: scenario.limit + 2 }),
    }).map((lanes) => ({ ...scenario, ...lanes })),
  );
}

/**
 * Random clients on one budget with heavy-tailed latencies (Pareto, capped at 4 windows, plus
 * instant answers) and arrivals anywhere in [send, response], the two ends included on purpose.
 */
export function scenarioArbitrary(bounds: ScenarioBounds): fc.Arbitrary<SimulationScenario> {
  return fc
    .record({ limit: fc.integer({ min: 1, max: bounds.maxLimit }), windowMs: fc.integer({ min: 50, max: 2_000 }) })
    .chain(({ limit, windowMs }) => {
      const maxLatencyMs = 4 * windowMs;
      return fc.record({
        limit: fc.constant(limit),
        windowMs: fc.constant(windowMs),
        leaseMs: fc.constant(maxLatencyMs + 1),
        clients: fc.array(fc.array(requestArbitrary(windowMs, maxLatencyMs), { minLength: 1, maxLength: bounds.maxRequestsPerClient }), {
          minLength: 1,
          maxLength: bounds.maxClients,
        }),
      });
    });
}

function requestArbitrary(windowMs: number, maxLatencyMs: number): fc.Arbitrary<SimulatedRequest> {
  return fc.record({
    thinkMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2 * windowMs })),
    latencyMs: fc.oneof(fc.constant(0), paretoLatency(windowMs, maxLatencyMs)),
    arrivalPermille: fc.oneof(fc.constant(1_000), fc.constant(0), fc.integer({ min: 0, max: 1_000 })),
  });
}

function paretoLatency(windowMs: number, maxLatencyMs: number): fc.Arbitrary<number> {
  return fc
    .record({ scalePermille: fc.integer({ min: 1, max: 300 }), uniformMillionths: fc.integer({ min: 1, max: 1_000_000 }) })
    .map(({ scalePermille, uniformMillionths }) => {
      const scaleMs = Math.max(1, Math.round((windowMs * scalePermille) / 1_000));
      // Inverse transform sampling: a uniform u in (0, 1] gives scale * u^(-1/alpha).
      const latency = scaleMs * Math.pow(1_000_000 / uniformMillionths, 1 / PARETO_ALPHA);
      return Math.min(maxLatencyMs, Math.round(latency));
    });
}
