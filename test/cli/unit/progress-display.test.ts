import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProgressDisplay } from '../../../src/cli/support/progress-display.js';
import { WaitWatch } from '../../../src/cli/support/wait-watch.js';
import type { GrantProgress } from '../../../src/workflows/grant-to-many/types.js';

/** A terminal 132 columns wide that keeps what was drawn. */
function fakeTerminal() {
  const writes: string[] = [];
  const stream = { isTTY: true, columns: 132, fd: -1, write: (chunk: string) => writes.push(chunk), on: () => stream, off: () => stream };
  /** The status line as it stands: the text after the last clear-line. */
  const line = (): string => writes.join('').split('\r\u001b[2K').at(-1) ?? '';
  return { stream: stream as unknown as NodeJS.WriteStream, writes, line };
}

function progress(done: number, at: number): GrantProgress {
  return { done, total: 1_000, counts: { created: done, already_granted: 0, skipped: 0, failed: 0, invalid: 0 }, sent: done, elapsedMs: at, ratePerSecond: done / (at / 1000), etaMs: 60_000, budgetBound: true };
}

let now = 0;
beforeEach(() => {
  vi.useFakeTimers();
  now = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the progress rate is the recent one, so it never freezes at a stale value while the job is stalled', () => {
  it('200 grants in 2 s, then nothing: the rate falls to 0.0/s within 10 s while the line keeps redrawing', () => {
    const terminal = fakeTerminal();
    const display = createProgressDisplay({ stream: terminal.stream, total: 1_000, now: () => now });
    for (let step = 1; step <= 20; step += 1) {
      now = step * 100;
      display.update(progress(step * 10, now));
    }
    expect(terminal.line()).toContain('| 100/s |');
    now += 5_000;
    vi.advanceTimersByTime(1_000);
    expect(terminal.line()).toMatch(/\| (2\d(\.\d)?|3\d(\.\d)?)\/s \|/u);
    now += 6_000;
    vi.advanceTimersByTime(1_000);
    expect(terminal.line()).toContain('| 0.0/s |');
    // The ETA counts down meanwhile.
    expect(terminal.line()).toContain('ETA 49 s');
    display.stop();
  });

  it('the cursor is hidden while the line runs and shown again when it stops; wrapping is never turned off', () => {
    const terminal = fakeTerminal();
    const display = createProgressDisplay({ stream: terminal.stream, total: 10, now: () => now });
    display.update(progress(10, 1_000));
    display.stop();
    const all = terminal.writes.join('');
    expect(all.indexOf('\u001b[?25l')).toBeLessThan(all.lastIndexOf('\u001b[?25h'));
    expect(all).not.toContain('\u001b[?7l');
    expect(all.endsWith('\n\u001b[?25h')).toBe(true);
  });

  it('a job refused at once (before any row, within half a second) draws no line and leaves the cursor alone', () => {
    const terminal = fakeTerminal();
    const display = createProgressDisplay({ stream: terminal.stream, total: 10, now: () => now });
    vi.advanceTimersByTime(400);
    display.stop();
    vi.advanceTimersByTime(1_000);
    expect(terminal.writes).toEqual([]);
  });
});

describe('the ETA is never shorter than what the job must still wait for, and reads in whole seconds', () => {
  it('during a 429 pause of 20 s, an estimate of 5 s reads 20 s, counting down with the pause', () => {
    const terminal = fakeTerminal();
    const waits = new WaitWatch({ now: () => now });
    const display = createProgressDisplay({ stream: terminal.stream, total: 1_000, now: () => now, waits });
    now = 1_000;
    display.update({ ...progress(400, now), etaMs: 5_000 });
    waits.expect('rate-limited:mutations', { reason: 'the server asked to wait (429, mutation rate limit)', short: '429 rate limit', durationMs: 20_000 });
    vi.advanceTimersByTime(1_000);
    expect(terminal.line()).toContain('ETA 20 s');
    now += 8_000;
    vi.advanceTimersByTime(1_000);
    expect(terminal.line()).toContain('ETA 12 s');
    display.stop();
  });

  it('an estimate under a second reads "ETA 1 s", not milliseconds', () => {
    const terminal = fakeTerminal();
    const display = createProgressDisplay({ stream: terminal.stream, total: 1_000, now: () => now });
    now = 1_000;
    display.update({ ...progress(999, now), etaMs: 114 });
    expect(terminal.line()).toContain('ETA 1 s');
    expect(terminal.line()).not.toContain(' ms');
    display.stop();
  });
});
