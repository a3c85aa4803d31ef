/**
 * A duration for people: `850 ms`, `42 s`, `3m 05s`, `2h 07m`.
 *
 * @example
 * ```ts
 * formatDuration(185_000); // '3m 05s'
 * ```
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  if (ms === 0) return '0 s';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/**
 * Time left, in whole seconds rounded up (`ETA 1 s` rather than `ETA 114 ms`: a countdown that
 * does not change width or read 0 while something is still left).
 *
 * @example
 * ```ts
 * formatTimeLeft(114); // '1 s'
 * ```
 */
export function formatTimeLeft(ms: number): string {
  return formatDuration(Number.isFinite(ms) && ms > 0 ? Math.ceil(ms / 1000) * 1000 : ms);
}

/** A rate with one decimal below 100, none above: `3.3/s`, `412/s`. */
export function formatRate(perSecond: number): string {
  return `${perSecond < 100 ? perSecond.toFixed(1) : Math.round(perSecond)}/s`;
}
