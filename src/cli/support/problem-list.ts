import { AdminApiError } from '../../errors/admin-api-error.js';
import { describeErrorCode } from '../../errors/error-codes.js';
import type { GrantOutcome } from '../../workflows/grant-to-many/types.js';
import { sdkErrorText } from './error-text.js';
import type { CsvMemberRow } from './member-csv.js';

interface Problem {
  index: number;
  text: string;
  /** The error code whose remedy is printed once under the list. */
  code: string | undefined;
}

/**
 * The failed and invalid rows of a grant job, for the summary: the first `limit` in input order
 * (rows finish out of order; only `limit` are kept, so memory stays flat), each on one line with
 * its CSV line, and each error code's remedy printed once under them.
 */
export class ProblemList {
  readonly #limit: number;
  /** Kept sorted by input index. */
  readonly #kept: Problem[] = [];
  #total = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Problems seen (listed or not). */
  get total(): number {
    return this.#total;
  }

  /** Problems listed. */
  get listed(): number {
    return this.#kept.length;
  }

  /** Takes a row's outcome; only failed and invalid ones are problems. */
  add(outcome: GrantOutcome): void {
    const problem = describe(outcome);
    if (problem === undefined) return;
    this.#total += 1;
    const at = this.#kept.findIndex((kept) => kept.index > problem.index);
    if (at < 0) this.#kept.push(problem);
    else this.#kept.splice(at, 0, problem);
    if (this.#kept.length > this.#limit) this.#kept.pop();
  }

  /** The listed problems, then the remedy of each error code among them, once. */
  lines(): string[] {
    const codes = [...new Set(this.#kept.flatMap((problem) => (problem.code === undefined ? [] : [problem.code])))];
    const remedies = codes.flatMap((code) => {
      const info = describeErrorCode(code);
      return info === undefined ? [] : [`${code}: ${info.remedy}`];
    });
    return [...this.#kept.map((problem) => `  ${problem.text}`), ...remedies];
  }
}

function describe(outcome: GrantOutcome): Problem | undefined {
  const line = `line ${(outcome.row as Partial<CsvMemberRow>).line ?? outcome.index + 2}`;
  if (outcome.outcome === 'invalid') return { index: outcome.index, text: `${line}: invalid (${outcome.reason}): ${outcome.error.message}`, code: undefined };
  if (outcome.outcome !== 'failed') return undefined;
  const { code, name, cause } = outcome.error;
  const message = cause instanceof AdminApiError ? sdkErrorText(cause) : outcome.error.message;
  const info = code === undefined ? undefined : describeErrorCode(code);
  // A documented code reads as its meaning here; its remedy is printed once under the list.
  const what = code === undefined ? `failed (${name}): ${message}` : info === undefined ? `failed ${code}: ${message}` : `failed ${code} (${info.meaning})`;
  const notSent = outcome.sent ? '' : '; not sent again (--retry-failed sends it)';
  return { index: outcome.index, text: `${line}: ${what}${notSent}`, code: info === undefined ? undefined : code };
}
