import { NetworkError } from '../../errors/network-error.js';

/**
 * Grants in a row, after some grant reached the server, that could not connect (each after its
 * own retries) before the job stops: the server stays unreachable, and going on would fail every
 * remaining row one by one (with the default 4 retries, about 11 s each).
 */
export const UNREACHABLE_GRANTS_IN_A_ROW = 5;

/**
 * Tells a bulk job when to stop because the server cannot be reached: at once when its first
 * grant could not connect (nothing has reached the server: a wrong base URL, a server that is
 * down, like a refused key), or after {@link UNREACHABLE_GRANTS_IN_A_ROW} grants in a row could not
 * connect. A grant the server answered (whatever the answer), or one that may have reached it (a
 * timeout, a reset connection), ends the streak.
 */
export class UnreachableStreak {
  #inARow = 0;
  #reached = false;

  /** Records how a grant ended (`undefined`: answered); true when the job should stop. */
  record(error: unknown): boolean {
    if (!(error instanceof NetworkError && !error.mayHaveReachedServer)) {
      this.#reached = true;
      this.#inARow = 0;
      return false;
    }
    this.#inARow += 1;
    return this.#inARow >= (this.#reached ? UNREACHABLE_GRANTS_IN_A_ROW : 1);
  }
}
