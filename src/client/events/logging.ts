import type { ClientEvents, WaitingEvent } from './client-events.js';
import type { WaitReason } from '../../rate-limit/priority.js';

const WAIT_REASONS: Record<WaitReason, string> = {
  budget: "the key's budget is spent for now",
  paused: 'paused after a 429',
  learnt_limit: "the server's stated limit is lower than the one configured",
  unreachable: 'the server could not be reached',
};
import type { Logger, LogLevel } from '../options/options.js';

const SEVERITY: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, off: 4 };

/**
 * Sends the client's events to a logger: requests and responses at `debug`, retries at `info`,
 * 429s at `warn`. Long waits for a permit (`waiting`) go to `info` for interactive calls (someone
 * is waiting for them) and to `debug` for background work, where waiting is the plan and a bulk
 * job would otherwise log a line per row. Every line names the call's id (`[call_...]`), so the
 * lines of concurrent calls can be told apart. Events carry no key and no variables, so neither do
 * the lines.
 */
export function attachLogger(events: ClientEvents, logger: Logger, level: LogLevel): void {
  const enabled = (wanted: LogLevel): boolean => SEVERITY[wanted] >= SEVERITY[level] && level !== 'off';
  const logWait = (event: WaitingEvent): void => {
    const expected = event.expectedMs === undefined ? '' : `, ${event.reason === 'unreachable' ? 'at most' : 'about'} ${Math.ceil(event.expectedMs / 1000)} s more expected`;
    // A call retrying after the server could not be reached waits for its next attempt, not for a permit.
    const what = event.reason === 'unreachable' ? `to try again (${WAIT_REASONS[event.reason]}${event.networkCode === undefined ? '' : `: ${event.networkCode}`})` : `for a ${event.operationType} permit (${WAIT_REASONS[event.reason]})`;
    const line = `school-admin-sdk: ${event.operation} [${event.callId}] (${event.priority}) has waited ${Math.round(event.waitedMs)} ms ${what}${expected}`;
    if (event.priority === 'interactive') logger.info(line, { ...event });
    else logger.debug(line, { ...event });
  };
  if (enabled('debug')) events.on('waiting', logWait);
  else if (enabled('info')) events.on('waiting', (event) => event.priority === 'interactive' && logWait(event));
  if (enabled('debug')) {
    events.on('request', (event) => logger.debug(`school-admin-sdk: sending ${event.operation} [${event.callId}] (attempt ${event.attempt})`, { ...event }));
    events.on('response', (event) =>
      logger.debug(`school-admin-sdk: ${event.operation} [${event.callId}] answered HTTP ${event.status} in ${Math.round(event.durationMs)} ms (attempt ${event.attempt})`, { ...event }),
    );
  }
  if (enabled('info')) {
    events.on('retry', (event) =>
      logger.info(`school-admin-sdk: retrying ${event.operation} [${event.callId}] after ${event.error} (attempt ${event.attempt})`, { ...event }),
    );
  }
  if (enabled('warn')) {
    events.on('rateLimited', (event) =>
      logger.warn(`school-admin-sdk: ${event.operationType} rate limit hit by ${event.operation} [${event.callId}] (attempt ${event.attempt}); pausing ${event.waitMs} ms`, { ...event }),
    );
  }
}
