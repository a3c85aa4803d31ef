/**
 * Reads a bench's `--interactive-reserve N`: the one client option a bench may set instead of its
 * default (`limits.interactiveReserve`), to measure what the slots kept for interactive calls cost.
 * Undefined when the flag is absent (default options).
 */
export function readInteractiveReserve(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const reserve = Number(value);
  if (!(Number.isInteger(reserve) && reserve >= 0)) throw new Error(`Failed to read --interactive-reserve: ${value} is not a whole number of slots. Pass --interactive-reserve 0.`);
  return reserve;
}
