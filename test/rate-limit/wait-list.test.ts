import { describe, expect, it } from 'vitest';
import { WaitList, Waiter, type WaiterOwner } from '../../src/rate-limit/wait-list.js';

const owner: WaiterOwner<string> = { abandon: () => undefined };
const waiter = (): Waiter<string> => new Waiter<string>(owner, 'background', 0, undefined, undefined);

function order(list: WaitList<string>, all: Waiter<string>[]): number[] {
  const seen: number[] = [];
  for (let node = list.head; node !== undefined; node = node.next) seen.push(all.indexOf(node));
  return seen;
}

describe('WaitList: "FIFO within a lane, head insertion, O(1) removal"', () => {
  it('keeps arrival order, puts a head insertion first, and removes any member in place', () => {
    const list = new WaitList<string>();
    const all = [waiter(), waiter(), waiter(), waiter(), waiter()];
    for (const node of all.slice(0, 4)) list.add(node, false);
    list.add(all[4] as Waiter<string>, true);
    expect(order(list, all)).toEqual([4, 0, 1, 2, 3]);
    expect(list.remove(all[1] as Waiter<string>)).toBe(true);
    expect(list.remove(all[4] as Waiter<string>)).toBe(true);
    expect(list.remove(all[3] as Waiter<string>)).toBe(true);
    expect(order(list, all)).toEqual([0, 2]);
    expect(list.size).toBe(2);
  });

  it('a removed waiter holds no link into the list, and removing it again changes nothing', () => {
    const list = new WaitList<string>();
    const [first, second] = [waiter(), waiter()];
    list.add(first, false);
    list.add(second, false);
    list.remove(first);
    expect([first.prev, first.next, first.list]).toEqual([undefined, undefined, undefined]);
    expect(list.remove(first)).toBe(false);
    expect(list.head).toBe(second);
    list.remove(second);
    expect(list.head).toBeUndefined();
    expect(list.size).toBe(0);
  });

  it('estimates how many stand ahead of a waiter', () => {
    const list = new WaitList<string>();
    const all = Array.from({ length: 10 }, waiter);
    for (const node of all) list.add(node, false);
    expect(list.ahead(all[0] as Waiter<string>)).toBe(0);
    expect(list.ahead(all[7] as Waiter<string>)).toBe(7);
    list.remove(all[0] as Waiter<string>);
    expect(list.ahead(all[7] as Waiter<string>)).toBe(6);
  });
});
