import type { ErrorCode } from '../errors/error-codes.js';
import { localCodedError, type LocalContext } from './local-errors.js';

/** The codes an operation uses when a member is named by both or neither of userId and email. */
export interface ExclusivityCodes {
  both?: ErrorCode;
  neither: ErrorCode;
}

/**
 * Checks that exactly one of `userId` and `email` is given (null or undefined count as absent,
 * as in GraphQL), throwing the operation's documented code otherwise.
 */
export function requireOneMember(context: LocalContext, who: { userId?: unknown; email?: unknown } | undefined, codes: ExclusivityCodes): void {
  const hasUserId = who?.userId !== undefined && who.userId !== null;
  const hasEmail = who?.email !== undefined && who.email !== null;
  if (!hasUserId && !hasEmail) throw localCodedError(context, codes.neither);
  if (hasUserId && hasEmail && codes.both !== undefined) throw localCodedError(context, codes.both);
}
