/**
 * When the keys of a paced cell start their jobs (`--starts`, bench:tenants and the Redis legs):
 * `together` (all at one instant: every window frees every key's slots at once, so the process
 * must send all keys' next windows in the same moment) or `spread` (key i at i / keys of a window
 * after the first, as a platform's schools start their jobs through a day). Each key's bound
 * counts from its own start.
 */
export const START_NAMES = ['together', 'spread'] as const;
export type StartName = (typeof START_NAMES)[number];

const isStartName = (name: string): name is StartName => (START_NAMES as readonly string[]).includes(name);

/** The starts named in `--starts` (comma-separated); throws on a name it does not know. */
export function parseStarts(value: string): StartName[] {
  const names = value.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !isStartName(name));
  if (unknown.length > 0 || names.length === 0) throw new Error(`Failed to read --starts: ${unknown.join(', ') || 'none given'} (known: ${START_NAMES.join(', ')}).`);
  return names.filter(isStartName);
}

/**
 * How long after the cell's start each of `keys` keys starts its job: none for `together`.
 *
 * @example
 * ```ts
 * startOffsets('spread', 4, 1_000); // [0, 250, 500, 750]
 * ```
 */
export function startOffsets(start: StartName | undefined, keys: number, windowMs: number): number[] | undefined {
  if (start !== 'spread') return undefined;
  return Array.from({ length: keys }, (_, index) => (index * windowMs) / keys);
}

/** The starts a cell of this load runs: a burst cell's keys start together (its figures are a burst's). */
export function startsOfLoad(burst: boolean, starts: readonly StartName[]): readonly StartName[] {
  return burst ? ['together'] : starts;
}

/** What a cell's name says of its start: nothing for `together`, the default. */
export function startLabel(start: StartName | undefined): string {
  return start === 'spread' ? ' spread' : '';
}

/**
 * Runs `job` for each item, each after its offset (none: all at once), and resolves with when each
 * started and ended (`performance.now()`): a key's bound counts from its own start.
 */
export async function startEach<T>(items: readonly T[], offsetsMs: readonly number[] | undefined, job: (item: T) => Promise<void>): Promise<{ starts: number[]; ends: number[] }> {
  const starts: number[] = [];
  const ends = await Promise.all(
    items.map(async (item, index) => {
      const offset = offsetsMs?.[index] ?? 0;
      if (offset > 0) await new Promise((resolve) => setTimeout(resolve, offset));
      starts[index] = performance.now();
      await job(item);
      return performance.now();
    }),
  );
  return { starts, ends };
}
