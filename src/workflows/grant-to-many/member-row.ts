import type { MemberRef } from '../../client/types/types.js';
import { journalMemberKey } from '../journal/member-key.js';
import type { GrantMemberRow, InvalidMemberReason } from './types.js';

/** A row that can be sent: the member (trimmed) and the key the journal records it under. */
export interface SendableMember {
  ok: true;
  member: MemberRef;
  key: string;
}

/** A row that must not be sent, and why. */
export interface UnusableMember {
  ok: false;
  reason: InvalidMemberReason;
  error: { code?: string; message: string };
}

// Pragmatic, not RFC 5322: one @, no spaces, a dot in the domain. The server matches emails of
// existing members only, so anything looser would just come back ENROLLMENT-002 and be retried.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/u;
const MAX_EMAIL_LENGTH = 254;
// The spec: member ids are UUIDs.
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;

const INVALID: Record<InvalidMemberReason, { code?: string; message: string }> = {
  neither_identifier: { code: 'COUPON-005', message: 'the row has neither an email nor a userId; give exactly one' },
  both_identifiers: { code: 'COUPON-006', message: 'the row has both an email and a userId; give exactly one' },
  invalid_email: { message: 'the email is not a valid address' },
  invalid_user_id: { message: 'the userId is not a UUID' },
};

/** A field's value trimmed; `undefined` when absent (`null`, `undefined`, blank); `null` when not text at all. */
function read(value: unknown): string | undefined | null {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function unusable(reason: InvalidMemberReason): UnusableMember {
  return { ok: false, reason, error: INVALID[reason] };
}

/**
 * Checks one input row before anything is sent: exactly one identifier, a plausible email or a
 * UUID user id. Values are trimmed; the key is the journal's member key (email lower-cased).
 *
 * @example
 * ```ts
 * checkMemberRow({ email: ' Ada@Example.com ' }); // { ok: true, member: { email: 'Ada@Example.com' }, key: 'ada@example.com' }
 * checkMemberRow({ email: 'ada@', userId: null }).ok; // false (reason 'invalid_email')
 * ```
 */
export function checkMemberRow(row: GrantMemberRow | null | undefined): SendableMember | UnusableMember {
  const email = read(row?.email);
  const userId = read(row?.userId);
  if (email !== undefined && userId !== undefined) return unusable('both_identifiers');
  if (email !== undefined) {
    if (email === null || email.length > MAX_EMAIL_LENGTH || !EMAIL_SHAPE.test(email)) return unusable('invalid_email');
    const member = { email };
    return { ok: true, member, key: journalMemberKey(member) };
  }
  if (userId !== undefined) {
    if (userId === null || !UUID_SHAPE.test(userId)) return unusable('invalid_user_id');
    const member = { userId };
    return { ok: true, member, key: journalMemberKey(member) };
  }
  return unusable('neither_identifier');
}
