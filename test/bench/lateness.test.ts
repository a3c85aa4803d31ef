import { describe, expect, it } from 'vitest';
import { latenessOf, median } from '../../bench/tenants/lateness.js';

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
