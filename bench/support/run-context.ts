import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';

/** What a benchmark run ran on: the SDK sources, the Node version, the date and the machine's load. */
export interface RunContext {
  /** `src of <the last commit that changed src/>, HEAD <hash>`, with `+ changes` when src/ differs from HEAD. */
  sdk: string;
  node: string;
  startedAt: string;
  /** 1, 5 and 15 minute load averages when the run started (the machine is shared). */
  loadBefore: number[];
}

/**
 * The SDK sources benchmarked: the last commit that changed src/, and whether src/ has uncommitted
 * changes; `BENCH_SDK_SOURCES` when set (a run from an exported snapshot, which has no git).
 */
function sdkSources(): string {
  const given = process.env['BENCH_SDK_SOURCES'];
  if (given !== undefined && given !== '') return given;
  try {
    const git = (...args: string[]): string => execFileSync('git', args, { encoding: 'utf8' }).trim();
    const changed = git('status', '--porcelain', '--', 'src') !== '';
    return `src of ${git('log', '-1', '--format=%h', '--', 'src')}${changed ? ' + uncommitted changes' : ''}, HEAD ${git('rev-parse', '--short', 'HEAD')}`;
  } catch {
    return 'unknown (no git)';
  }
}

/** The 1, 5 and 15 minute load averages now, to two decimals. */
export function currentLoad(): number[] {
  return loadavg().map((load) => Number(load.toFixed(2)));
}

/** Reads the context at the start of a run. */
export function runContext(): RunContext {
  return { sdk: sdkSources(), node: process.version, startedAt: new Date().toISOString(), loadBefore: currentLoad() };
}

/** `load 3.58, 2.08, 1.05` for the 1, 5 and 15 minute load averages now (or the given ones). */
export function formatLoad(load: readonly number[] = currentLoad()): string {
  return `load ${load.map((value) => value.toFixed(2)).join(', ')}`;
}
