/**
 * Reports a connection's drops once each: a client says it is down again after every failed
 * reconnection attempt, and only the first of those after it was up is a drop. Both connection
 * adapters (ioredis, node-redis) feed it their clients' own events.
 */
export function firstDropAfterUp(listener: () => void, upAtStart: boolean): { up: () => void; down: () => void } {
  let up = upAtStart;
  return {
    up: () => {
      up = true;
    },
    down: () => {
      if (up) listener();
      up = false;
    },
  };
}
