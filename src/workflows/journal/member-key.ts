import type { MemberRef } from '../../client/types/types.js';

/**
 * The key a journal records a member under: the email trimmed and lower-cased (the server matches
 * emails case-insensitively), or the user id trimmed. The same person listed once by email and once
 * by id has two keys.
 *
 * @example
 * ```ts
 * journalMemberKey({ email: ' Ada@Example.com ' }); // 'ada@example.com'
 * journalMemberKey({ userId: '7e1f...' });           // '7e1f...'
 * ```
 */
export function journalMemberKey(member: MemberRef): string {
  return member.email !== undefined ? member.email.trim().toLowerCase() : member.userId.trim();
}
