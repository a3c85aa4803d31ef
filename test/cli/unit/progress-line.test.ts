import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { progressLine, type ProgressView } from '../../../src/cli/support/progress-line.js';
import type { WaitNotice } from '../../../src/cli/support/wait-watch.js';

const view = (over: Partial<ProgressView> = {}): ProgressView => ({
  done: 200,
  total: 500,
  counts: { created: 196, already_granted: 1, skipped: 0, failed: 2, invalid: 1 },
  recentRate: 13.6,
  etaMs: 34_000,
  budgetBound: true,
  wait: undefined,
  stopping: false,
  ...over,
});

const serverWait: WaitNotice = { reason: 'the server asked to wait (429, mutation rate limit)', short: '429 rate limit', leftMs: 27_400, atMost: false };

describe('the progress line fits the terminal width and always shows created, failed and invalid', () => {
  it.each([80, 110, 132])('%i columns', (columns) => {
    for (const state of [view(), view({ wait: serverWait }), view({ stopping: true }), view({ wait: serverWait, stopping: true })]) {
      const line = progressLine(state, columns);
      expect(line.length, line).toBeLessThanOrEqual(columns - 1);
      expect(line).toMatch(/created 196,? .*failed 2,? invalid 1$/u);
      if (state.wait !== undefined) expect(line).toMatch(/wait(ing)?,? .*28 s.*(429 rate limit|asked to wait)/u);
    }
  });

  it('132 columns: bar, count, rate, ETA from the rate limit, and every count', () => {
    expect(progressLine(view(), 132)).toBe('========------------ 40% | 200/500 rows | 13.6/s | ETA 34 s (rate limit) | created 196, already 1, skipped 0, failed 2, invalid 1');
  });

  it('80 columns: the bar, zero counts and the ETA\'s "(rate limit)" go first', () => {
    expect(progressLine(view(), 80)).toBe('40% | 200/500 | 13.6/s | ETA 34 s | created 196, already 1, failed 2, invalid 1');
  });

  it('a wait shows its reason and time left; after the first Ctrl-C, "stopping"', () => {
    expect(progressLine(view({ wait: serverWait, stopping: true }), 132)).toBe('40% | 200/500 | stopping | 13.6/s | ETA 34 s | wait 28 s: 429 rate limit | created 196, already 1, failed 2, invalid 1');
    expect(progressLine(view({ wait: serverWait }), 240)).toContain('waiting, 28 s left: the server asked to wait (429, mutation rate limit)');
  });

  const notices = fc.constantFrom<WaitNotice | undefined>(
    undefined,
    serverWait,
    { reason: 'retrying after a NetworkError (attempt 3, 2 more allowed)', short: 'retry (NetworkError)', leftMs: 4_000, atMost: true },
    { reason: 'no answer from the server yet (a request gives up after 30 s)', short: 'slow server', leftMs: 29_000, atMost: true },
  );
  const states = fc
    .record({ total: fc.integer({ min: 0, max: 99_999 }), shares: fc.array(fc.nat(), { minLength: 5, maxLength: 5 }), wait: notices, stopping: fc.boolean(), etaMs: fc.option(fc.nat({ max: 10 * 3_600_000 }), { nil: undefined }), rate: fc.double({ min: 0, max: 5_000, noNaN: true }) })
    .map(({ total, shares, wait, stopping, etaMs, rate }) => {
      const sum = shares.reduce((a, b) => a + b, 0) || 1;
      const [created, already_granted, skipped, failed, invalid] = shares.map((share) => Math.floor((share / sum) * total)) as [number, number, number, number, number];
      return view({ done: created + already_granted + skipped + failed + invalid, total, counts: { created, already_granted, skipped, failed, invalid }, wait, stopping, etaMs, recentRate: rate });
    });

  it('for any job up to 99,999 rows, from 80 to 300 columns (property)', () => {
    fc.assert(
      fc.property(states, fc.integer({ min: 80, max: 300 }), (state, columns) => {
        const line = progressLine(state, columns);
        expect(line.length).toBeLessThanOrEqual(columns - 1);
        for (const count of [`created ${state.counts.created}`, `failed ${state.counts.failed}`, `invalid ${state.counts.invalid}`]) expect(line).toContain(count);
        if (state.wait !== undefined) expect(line).toMatch(new RegExp(`${state.wait.short.replace(/[()]/gu, '\\$&')}|${state.wait.reason.replace(/[()]/gu, '\\$&')}`, 'u'));
      }),
      { numRuns: 500 },
    );
  });

  it('at the end the ETA gives its room to the counts', () => {
    const done = view({ done: 500, etaMs: 0, counts: { created: 0, already_granted: 99, skipped: 397, failed: 4, invalid: 0 } });
    expect(progressLine(done, 80)).toBe('100% | 500/500 | created 0, already 99, skipped 397, failed 4, invalid 0');
  });
});
