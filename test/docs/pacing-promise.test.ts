import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultPromiseMs, defaultSlots } from '../../bench/qos/promise.js';
import { safeBoundMs } from '../../bench/qos/setup.js';
import { DEFAULTS } from '../../src/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (path: string): string => readFileSync(join(root, path), 'utf8');

/** The paragraphs that state the default mode's price, from their heading to the batch-mode sentence. */
function promiseText(document: string): string | undefined {
  const start = document.indexOf('**What the default mode costs a bulk job.**');
  const end = document.indexOf('a job ends within `1.03 x` the safe bound', start);
  return start === -1 || end === -1 ? undefined : document.slice(start, end);
}

describe('the default mode\'s price: "one promise, the same text in README, docs/options.md, docs/architecture.md and bench/README.md" (issue 27)', () => {
  const documents = ['README.md', 'docs/options.md', 'docs/architecture.md', 'bench/README.md'];

  it.each(documents)('%s states it, word for word as the README does', (path) => {
    const readme = promiseText(read('README.md'));
    expect(readme).toBeDefined();
    expect(promiseText(read(path))).toBe(readme);
  });

  it('its example is the formula bench:qos judges with (bench/qos/promise.ts): 1,000 grants alone at 200 per minute take 5 minutes instead of 4', () => {
    const budget = DEFAULTS.mutations;
    expect(defaultSlots(budget.limit)).toEqual({ reserve: Math.max(1, Math.ceil(budget.limit * DEFAULTS.interactiveReserveShare)), ramp: Math.ceil(budget.limit / 4) });
    const minutes = (ms: number): number => Math.round(ms / 60_000);
    expect(minutes(safeBoundMs(1_000, 100, budget))).toBe(4);
    expect(minutes(defaultPromiseMs(1_000, 100, budget, 0))).toBe(5);
    // Sizes the reserve does not push into another round cost nothing, unless the ramp's last slots are needed.
    expect(defaultPromiseMs(1_100, 100, budget, 0)).toBe(safeBoundMs(1_100, 100, budget));
    expect(defaultPromiseMs(1_150, 100, budget, 0) - safeBoundMs(1_150, 100, budget)).toBeCloseTo((60_000 * (1_150 - 980 - 150)) / 50);
  });
});
