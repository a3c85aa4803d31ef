import { InvalidArgumentError } from 'commander';

/** Parses an option that must be a positive whole number (`--concurrency`, `--capacity`). */
export function parsePositiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new InvalidArgumentError('expected a positive whole number');
  return parsed;
}

/** Parses an option that must be zero or a positive whole number. */
export function parseNonNegativeInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new InvalidArgumentError('expected zero or a positive whole number');
  return parsed;
}
