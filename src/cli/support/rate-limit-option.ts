import { InvalidArgumentError } from 'commander';
import type { RateLimitBudget } from '../../client/options/options.js';

const RATE_SHAPE = /^(?<limit>\d+)\s*\/\s*(?<amount>\d+(?:\.\d+)?)?\s*(?<unit>ms|s|m|min|h)?$/u;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000 };

/**
 * Parses `--rate-limit`: `<limit>/<window>`, e.g. `200/60s`, `200/1m`, `2000/1s` (a window
 * without unit is in seconds; `200/m` means one minute).
 *
 * @example
 * ```ts
 * parseRateLimit('200/60s'); // { limit: 200, windowMs: 60_000 }
 * ```
 */
export function parseRateLimit(value: string): RateLimitBudget {
  const match = RATE_SHAPE.exec(value.trim());
  const limit = Number(match?.groups?.['limit']);
  const amount = match?.groups?.['amount'] === undefined ? 1 : Number(match.groups['amount']);
  const windowMs = amount * (UNIT_MS[match?.groups?.['unit'] ?? 's'] ?? 1000);
  if (match === null || !Number.isInteger(limit) || limit <= 0 || !(windowMs > 0)) {
    throw new InvalidArgumentError('expected <requests>/<window>, e.g. 200/60s (the documented default) or 2000/1s');
  }
  return { limit, windowMs };
}

/** A budget as `--rate-limit` takes it: `200/60s`, `50/500ms`. */
export function formatRateLimit(budget: RateLimitBudget): string {
  return budget.windowMs % 1000 === 0 ? `${budget.limit}/${budget.windowMs / 1000}s` : `${budget.limit}/${budget.windowMs}ms`;
}

/** The help text of `--rate-limit`. */
export const RATE_LIMIT_HELP = "the server's mutation limit, for self-hosted deployments that changed it (default: 200/60s)";
