import { invalidInput, type LocalContext } from '../../validation/local-errors.js';
import { mergeExtraHeaders, type ExtraHeaders } from './extra-headers.js';
import { nonNegativeInteger, positive, priority, type Fail, type ResolvedClientOptions } from '../options/resolve-options.js';
import type { CallOptions, Priority } from '../types/types.js';

/** What shapes one call: the client's settings with the call's own options over them. */
export interface CallSettings {
  signal: AbortSignal | undefined;
  /** Per attempt. */
  timeoutMs: number;
  maxRetries: number;
  /** Extra headers (the client's, then the call's), names lower-cased; never the key header. */
  headers: ExtraHeaders;
  /** Undefined: the default by kind of call applies. */
  priority: Priority | undefined;
}

/**
 * The settings of one call: each per-call option checked (an `InvalidInputError` naming it,
 * before anything is paced or sent) and laid over the client's value, for this call only.
 */
export function resolveCallSettings(client: ResolvedClientOptions, options: CallOptions | null | undefined, context: LocalContext): CallSettings {
  if (options === undefined || options === null) {
    return { signal: undefined, timeoutMs: client.timeoutMs, maxRetries: client.maxRetries, headers: client.headers, priority: client.priority };
  }
  const fail: Fail = (field, problem) => {
    throw invalidInput(context, field, problem);
  };
  if (typeof options !== 'object') fail('options', 'the call\'s options must be an object');
  const timeoutMs = positive(options.timeoutMs, client.timeoutMs, 'timeoutMs', fail);
  // The permit's lease must outlast the request, or the permit would be freed while it may still arrive.
  if (client.pacing !== false && timeoutMs >= client.pacing.leaseMs) {
    fail('timeoutMs', `timeoutMs (${timeoutMs} ms) must be shorter than the client's limits.leaseMs (${client.pacing.leaseMs} ms); raise limits.leaseMs for longer calls`);
  }
  return {
    signal: options.signal,
    timeoutMs,
    maxRetries: nonNegativeInteger(options.maxRetries, client.maxRetries, 'maxRetries', fail),
    headers: mergeExtraHeaders(client.headers, options.headers, fail),
    priority: priority(options.priority, client.priority, 'priority', fail),
  };
}
