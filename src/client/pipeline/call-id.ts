/** `call_` and a part random per process (module instance), so ids of two processes writing one log do not collide. */
let prefix: string | undefined;
let sequence = 0;

/**
 * A new call id, e.g. `call_3f9a1c2e7b_1k`: `call_`, a random part drawn once per process, and a
 * sequence number (base 36). The sequence makes every id unique within the process, whatever the
 * clients; the random part tells processes apart. Ids say nothing about the key or the request.
 */
export function newCallId(): string {
  // One string per process for the fixed part: each id is that and its sequence (a waiting call keeps its id).
  prefix ??= `call_${randomHex(5)}_`;
  sequence += 1;
  return prefix + sequence.toString(36);
}

/** `bytes` random bytes as hex digits: one flat string (Web Crypto where there is one). */
export function randomHex(bytes: number): string {
  const values = new Uint8Array(bytes);
  const crypto = (globalThis as { crypto?: { getRandomValues?: (array: Uint8Array) => Uint8Array } }).crypto;
  if (typeof crypto?.getRandomValues === 'function') crypto.getRandomValues(values);
  // A runtime without Web Crypto still gets ids unique within the process (the sequence); only the
  // process part is weaker.
  else for (let index = 0; index < bytes; index += 1) values[index] = Math.floor(Math.random() * 256);
  return Array.from(values, (value) => value.toString(16).padStart(2, '0')).join('');
}
