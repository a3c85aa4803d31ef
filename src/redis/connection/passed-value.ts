/**
 * Names a value passed where a Redis client was expected, for an error message: its kind and, for
 * an object, its class or its key names. Never its contents (an options object or a URL may hold a
 * password).
 *
 * @example
 * ```ts
 * passedValue(new Map()); // 'a Map'
 * passedValue({ host: 'cache', password: 'p' }); // 'a plain object (keys: host, password)'
 * ```
 */
export function passedValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'string') return 'a string that is not a redis:// or rediss:// URL';
  if (typeof value === 'function') return value.name === '' ? 'a function' : `the function ${value.name} (call it, and pass the client it makes)`;
  if (typeof value !== 'object') return `a ${typeof value}`;
  if (typeof (value as { then?: unknown }).then === 'function') return 'a Promise (await it, and pass the client it resolves to)';
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype === null || prototype === Object.prototype) {
    const keys = Object.keys(value);
    const shown = keys.slice(0, 6).join(', ');
    return keys.length === 0 ? 'an empty object' : `a plain object (keys: ${shown}${keys.length > 6 ? ', ...' : ''})`;
  }
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  if (typeof name !== 'string' || name === '') return 'an object of an unnamed class';
  return `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}`;
}
