import type { ClientEvents, RateLimitedEvent, WaitingEvent } from './client-events.js';
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
 * 429 pauses at `warn` (one line per pause, with the count of calls answered 429). Long waits for a permit (`waiting`) go to `info` for interactive calls (someone
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
    const line = `school-admin-sdk: ${event.operation} [${event.callId}] (${event.priority}) has waited ${event.waitedMs} ms ${what}${expected}`;
    if (event.priority === 'interactive') logger.info(line, { ...event });
    else logger.debug(line, { ...event });
  };
  if (enabled('debug')) events.on('waiting', logWait);
  else if (enabled('info')) events.on('waiting', (event) => event.priority === 'interactive' && logWait(event));
  if (enabled('debug')) {
    events.on('request', (event) => logger.debug(`school-admin-sdk: sending ${event.operation} [${event.callId}] (attempt ${event.attempt})`, { ...event }));
    events.on('response', (event) =>
      logger.debug(`school-admin-sdk: ${event.operation} [${event.callId}] answered HTTP ${event.status} in ${event.durationMs} ms (attempt ${event.attempt})`, { ...event }),
    );
  }
  if (enabled('info')) {
    events.on('retry', (event) =>
      logger.info(`school-admin-sdk: retrying ${event.operation} [${event.callId}] after ${event.error} (attempt ${event.attempt})`, { ...event }),
    );
  }
  if (enabled('warn')) events.on('rateLimited', pauseAnnouncer(logger));
}

/**
 * The line of a pause is written this long after its first 429 (or half way through a shorter
 * pause): the requests in flight when the budget ran out are answered within moments of each
 * other, and the pause holds every other request, so the line comes while the calls it counts
 * wait. A deadline, not a quiet time after the last 429: on a loaded machine the burst's answers
 * came more than 200 ms apart, and a quiet time of 200 ms wrote the line before the last ones.
 */
const PAUSE_LINE_AFTER_MS = 1_000;

/**
 * One `warn` line per 429 pause, not one per call (a burst of 64 grants in flight once gave 20
 * lines for one pause); the `rateLimited` events stay one per call. The line names the first call
 * answered 429 and how many were by then: each goes again after the pause. A 429 while a pause
 * lasts belongs to it (one after the line is counted in no second line).
 */
function pauseAnnouncer(logger: Logger): (event: RateLimitedEvent) => void {
  const pauses: Partial<Record<string, { until: number; calls: number }>> = {};
  return (event) => {
    const now = Date.now();
    const open = pauses[event.operationType];
    if (open !== undefined && now < open.until) {
      open.calls += 1;
      return;
    }
    const pause = (pauses[event.operationType] = { until: now + event.waitMs, calls: 1 });
    setTimeout(
      () =>
        logger.warn(
          `school-admin-sdk: ${event.operationType} rate limit hit (429) by ${pause.calls} call(s), first ${event.operation} [${event.callId}] (attempt ${event.attempt}); pausing ${event.waitMs} ms`,
          { ...event, calls: pause.calls },
        ),
      Math.min(PAUSE_LINE_AFTER_MS, event.waitMs / 2),
    );
  };
}
