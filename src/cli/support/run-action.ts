import type { Command } from 'commander';
import { AdminApiError } from '../../errors/admin-api-error.js';
import { CodedError } from '../../errors/coded-error.js';
import { InvalidInputError } from '../../errors/invalid-input-error.js';
import { CliFailure } from './cli-failure.js';
import { CliUsageError } from './cli-usage-error.js';
import { sdkErrorText } from './error-text.js';
import { EXIT_CODES } from './exit-codes.js';
import { writeWrapped } from './text-wrap.js';

/**
 * Wraps a command's action: its resolved value is the exit status; a thrown error is printed as
 * `school-admin: <message>` wrapped to the width of stderr (SDK messages already read "Failed to
 * ...: reason. Remedy." and never contain the key), with status 2 for usage errors and 1 otherwise.
 */
export function runAction<A extends unknown[]>(action: (...args: A) => Promise<number>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      process.exitCode = await action(...args);
    } catch (error) {
      writeWrapped(process.stderr, `school-admin: ${describe(error)}\n`);
      process.exitCode = isUsageError(error) ? EXIT_CODES.usage : EXIT_CODES.failed;
    }
  };
}

function isUsageError(error: unknown): boolean {
  // Local input errors of the SDK are the command line's values (an id, a URL, a hosting without
  // --join-url) refused before anything was sent.
  return error instanceof CliUsageError || error instanceof InvalidInputError || (error instanceof CodedError && error.local);
}

function describe(error: unknown): string {
  if (error instanceof AdminApiError) return sdkErrorText(error);
  if (error instanceof CliUsageError || error instanceof CliFailure) return error.message;
  if (error instanceof Error) return `Failed to run the command: ${error.message}. This looks like a bug; please report it.`;
  return `Failed to run the command: ${String(error)}.`;
}

/**
 * Makes commander's own usage errors (unknown option, missing value, bad argument) exit with
 * status 2, and `--help` with 0. Returns the command for chaining.
 */
export function exitTwoOnUsageErrors(command: Command): Command {
  return command.exitOverride((error) => {
    process.exit(error.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage);
  });
}
