/**
 * How deep a response's JSON may nest. The API's answers are a few levels deep (a payload, its
 * object, a list, an entry); 256 leaves room for any real GraphQL answer, `request()` documents
 * included, and keeps every later walk (messages, redaction, normalising) far from the stack limit.
 */
export const MAX_JSON_DEPTH = 256;

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * True when `value` nests objects or arrays deeper than `maxDepth` levels. Walks iteratively with
 * an explicit stack, so a hostile body 100,000 levels deep is measured without recursion.
 */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  const push = (child: unknown, depth: number): void => {
    if (child !== null && typeof child === 'object') {
      values.push(child);
      depths.push(depth);
    }
  };
  while (values.length > 0) {
    const item = values.pop();
    const depth = depths.pop() as number;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= maxDepth) return true;
    if (Array.isArray(item)) {
      for (const child of item) push(child, depth + 1);
    } else {
      // Own keys only, without an array of them per object (every answer is walked).
      for (const key in item) if (hasOwn.call(item, key)) push((item as Record<string, unknown>)[key], depth + 1);
    }
  }
  return false;
}
