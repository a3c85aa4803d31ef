/** One memory reading of this process. */
export interface MemorySample {
  /** Calls finished when it was taken. */
  at: number;
  rssMb: number;
  heapUsedMb: number;
}

const MB = 1024 * 1024;
/** The sample after which the process counts as warmed up (modules loaded, JIT settled, pools filled). */
const WARM_UP_INDEX = 1;

/**
 * Samples RSS and heap use (after a full GC when node runs with --expose-gc, so garbage not yet
 * collected does not look like a leak) and compares the end with the first sample after warm-up.
 */
export class MemorySampler {
  readonly samples: MemorySample[] = [];

  /** Takes a sample (once per `at`). */
  sample(at: number): void {
    if (this.samples.some((sample) => sample.at === at)) return;
    globalThis.gc?.();
    const usage = process.memoryUsage();
    this.samples.push({ at, rssMb: usage.rss / MB, heapUsedMb: usage.heapUsed / MB });
  }

  /** End divided by the warm-up sample, for RSS and heap (1.0 = flat). */
  endToWarmUp(): { rss: number; heapUsed: number } {
    const warm = this.samples[Math.min(WARM_UP_INDEX, this.samples.length - 1)];
    const end = this.samples.at(-1);
    if (warm === undefined || end === undefined) return { rss: 1, heapUsed: 1 };
    return { rss: end.rssMb / warm.rssMb, heapUsed: end.heapUsedMb / warm.heapUsedMb };
  }

  /** The samples as a table plus the ratio line. */
  format(): string {
    const rows = this.samples.map((sample) => `  ${String(sample.at).padStart(6)} calls   RSS ${sample.rssMb.toFixed(1).padStart(7)} MB   heap ${sample.heapUsedMb.toFixed(1).padStart(6)} MB`);
    const ratio = this.endToWarmUp();
    return [`Memory (start, every 1,000 calls, end):`, ...rows, `  end / after warm-up (at ${this.samples[WARM_UP_INDEX]?.at ?? 0} calls): RSS ${ratio.rss.toFixed(3)}, heap ${ratio.heapUsed.toFixed(3)}`].join('\n');
  }
}
