import { InvalidInputError } from '../../errors/invalid-input-error.js';
import { isClientOption, KEPT_FROM_PARENT, unknownOptionProblem } from '../options/option-names.js';
import type { AdminClientOptions } from '../options/options.js';
import { callTuning, positive, type Fail, type ResolvedClientOptions } from '../options/resolve-options.js';
import type { ClientEvents } from '../events/client-events.js';
import type { ClientWiring } from './operation-runner.js';

/**
 * The options `withOptions()` may change: how each call is made. What makes the client what it is
 * (key, server, fetch), the budget it shares (`limits`) and the logger that sees every call stay
 * the parent's.
 */
export type ClientOverrides = Pick<
  AdminClientOptions,
  'timeoutMs' | 'maxRetries' | 'headers' | 'priority' | 'retryBaseDelayMs' | 'maxRetryDelayMs' | 'maxRateLimitWaitMs' | 'bulkChunkSize' | 'authErrorCodes' | 'requestIdHeaders' | 'telemetry'
>;

/**
 * The options of a client derived from `parent`: each override checked as the constructor checks
 * it (an `InvalidInputError` naming it), `headers` merged over the parent's, anything else kept.
 * An option a derived client cannot change, or one that does not exist, is refused by name.
 */
export function deriveOptions(parent: ResolvedClientOptions, overrides: ClientOverrides): ResolvedClientOptions {
  const fail: Fail = (field, problem) => {
    throw new InvalidInputError(`Failed to derive a client (withOptions): ${problem}.`, { operation: 'withOptions', field });
  };
  if (overrides === null || typeof overrides !== 'object') fail('options', 'pass an object of the options to change');
  for (const name of Object.keys(overrides)) {
    if (!isClientOption(name)) fail(name, unknownOptionProblem(name));
    // Every option is either changeable or in this table: the table's type says which.
    const kept = (KEPT_FROM_PARENT as Partial<Record<keyof AdminClientOptions, string>>)[name];
    if (kept !== undefined) fail(name, `${name} cannot be changed on a derived client: ${kept}`);
  }
  const timeoutMs = positive(overrides.timeoutMs, parent.timeoutMs, 'timeoutMs', fail);
  // The limiter (and its lease) is the parent's: the lease must still outlast every request.
  if (parent.pacing !== false && timeoutMs >= parent.pacing.leaseMs) {
    fail('timeoutMs', `timeoutMs (${timeoutMs} ms) must be shorter than the parent's limits.leaseMs (${parent.pacing.leaseMs} ms)`);
  }
  const authErrorCodes = overrides.authErrorCodes ?? parent.authErrorCodes;
  if (!Array.isArray(authErrorCodes) || !authErrorCodes.every((code) => typeof code === 'string')) fail('authErrorCodes', 'authErrorCodes must be a list of strings');
  return { ...parent, timeoutMs, authErrorCodes, ...callTuning(overrides, parent, fail) };
}

/**
 * What a derived client takes from its parent (see `AdminClient.withOptions`). Not exported from
 * the package, so only `withOptions()` can hand one to the constructor.
 */
export class DerivedClientSeed {
  constructor(
    readonly options: ResolvedClientOptions,
    readonly wiring: ClientWiring,
    readonly parentEvents: ClientEvents,
  ) {}
}
