/**
 * Peak resident set size per phase: the highest `process.memoryUsage.rss()` seen while the job had
 * done at most `checkpoint` members, and the highest seen over the whole run. Sampled every
 * `intervalMs` and when the checkpoint is passed (reading the RSS costs a /proc read, too much to
 * do for every member).
 */
export class RssPeaks {
  readonly #checkpoint: number;
  readonly #timer: ReturnType<typeof setInterval>;
  #done = 0;
  /** Peak RSS (bytes) while fewer than `checkpoint` members were done. */
  early = 0;
  /** Peak RSS (bytes) over the whole run. */
  overall = 0;

  constructor(checkpoint: number, intervalMs = 20) {
    this.#checkpoint = checkpoint;
    this.#timer = setInterval(() => this.sample(), intervalMs);
  }

  /** Records progress; samples once more when the checkpoint is passed. */
  progress(done: number): void {
    if (this.#done <= this.#checkpoint && done > this.#checkpoint) this.sample();
    this.#done = done;
  }

  sample(): void {
    const rss = process.memoryUsage.rss();
    if (this.#done <= this.#checkpoint) this.early = Math.max(this.early, rss);
    this.overall = Math.max(this.overall, rss);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.sample();
  }
}
