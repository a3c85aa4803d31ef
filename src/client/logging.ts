import type { ClientEvents } from './client-events.js';
import type { Logger, LogLevel } from './options.js';

const SEVERITY: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, off: 4 };

/**
 * Sends the client's events to a logger: requests and responses at `debug`, retries at
 * `info`, rate-limit waits at `warn`. Every line names the call's id (`[call_...]`), so the lines of
 * concurrent calls can be told apart. Events carry no key and no variables, so neither do the lines.
 */
export function attachLogger(events: ClientEvents, logger: Logger, level: LogLevel): void {
  const enabled = (wanted: LogLevel): boolean => SEVERITY[wanted] >= SEVERITY[level] && level !== 'off';
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
