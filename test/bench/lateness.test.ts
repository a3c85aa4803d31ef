import { describe, expect, it } from 'vitest';
import { jobFigures, latenessOf, median } from '../../bench/tenants/lateness.js';
import { startEach } from '../../bench/tenants/starts.js';

describe('latenessOf: where a key lost time against its bound', () => {
  it('the first window left when the budget-th request was sent', () => {
    expect(latenessOf([5, 7, 30], [10, 10, 10], 0, 3, 1_000).firstWindowMs).toBe(30);
  });

  it('a later request is late by its send less the time its slot freed, a window after an answer', () => {
    // Answers at 10 and 12; slots free at 1,010 and 1,012; sent at 1,030 and 1,022: 20 and 10 ms late.
    expect(latenessOf([0, 2, 1_030, 1_022], [10, 10, 10, 10], 0, 2, 1_000).reuseLagMs).toBe(15);
  });

  it('slots free in answer order, not in send order', () => {
    // The first request is answered last (at 500), the second at 12: the third request takes the slot freed at 1,012.
    expect(latenessOf([0, 2, 1_012], [500, 10, 10], 0, 2, 1_000).reuseLagMs).toBe(0);
  });

  it('a job within one window has no later requests: no lag', () => {
    expect(latenessOf([0, 1], [5, 5], 0, 2, 1_000).reuseLagMs).toBe(0);
  });
});

describe('median', () => {
  it('the middle value, the upper one of an even count, NaN for none', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(3);
    expect(median([])).toBeNaN();
  });
});

describe('jobFigures: every key against its own bound, from its own start', () => {
  it('a key that started later is held to its bound from its start, not the first key\'s', () => {
    // 1 per 1,000 ms, round trips of 10 ms: the bound of two requests is 1,010 + 10 = 1,020 ms.
    const key = (start: number) => ({ sends: [start, start + 1_010], roundTrips: [10, 10] });
    const figures = jobFigures({ requests: [key(0), key(500)], starts: [0, 500], ends: [1_020, 500 + 1_071] }, { limit: 1, windowMs: 1_000 }, 1_571);
    expect(figures.median).toBeCloseTo(1_071 / 1_020);
    expect(figures.worst).toBeCloseTo(1_071 / 1_020);
    expect(figures.worstJobMs).toBe(1_071);
    expect(figures.worstBoundMs).toBe(1_020);
    expect(figures.meanRttMs).toBe(10);
    expect(figures.wallMs).toBe(1_571);
  });
});

describe('startEach: each job after its offset', () => {
  it('starts each job no sooner than its offset and records its start and end', async () => {
    const order: string[] = [];
    const { starts, ends } = await startEach(['a', 'b'], [0, 40], async (name) => void order.push(name));
    expect(order).toEqual(['a', 'b']);
    expect((starts[1] as number) - (starts[0] as number)).toBeGreaterThanOrEqual(35);
    expect(ends.every((end, index) => end >= (starts[index] as number))).toBe(true);
  });
});
