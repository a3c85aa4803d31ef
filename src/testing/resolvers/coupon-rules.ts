import { fail } from '../graphql/coded-error.js';
import type { CouponType } from '../model/records.js';

/** Payload messages of coupon model validation (the simulator's texts; the spec gives none). */
export const COUPON_MESSAGES = {
  /** A blank name. */
  nameBlank: "Name can't be blank",
  /** A percentage amount outside (0, 100]. */
  percentageBounds: 'Amount must be greater than 0 and at most 100 for a percentage coupon',
  /** A fixed amount of 0 or less. */
  fixedAmountPositive: 'Amount must be greater than 0',
  /** `expiredAt` is not after `startedAt`. */
  expiryNotAfterStart: 'expiredAt must be after startedAt',
  /** A redemption limit below 1. */
  redemptionLimitPositive: 'Redemption limit must be at least 1 (null means unlimited)',
  /** The code is used by a live coupon or discount code of the school. */
  codeTaken: 'Code has already been taken',
  /** A timestamp that is not a number or a string of digits. */
  timestampInvalid: (field: string) => `${field} must be a Unix timestamp (a number or a string of digits)`,
} as const;

/** COUPON-002 unless the type is `fixed_amount` or `percentage`. */
export function couponType(value: string): CouponType {
  if (value !== 'fixed_amount' && value !== 'percentage') {
    fail('COUPON-002', 'couponType must be fixed_amount or percentage', { couponType: value });
  }
  return value;
}

/** A BigInt input (number or string of digits) as a number; `undefined` when it is not one. */
export function bigIntTimestamp(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
  return undefined;
}

/** The fields model validation looks at, as the coupon would end up. */
export interface CouponDraft {
  name: string;
  couponType: CouponType;
  amount: number;
  startedAt: number | null;
  expiredAt: number | null;
  redemptionLimit: number | null;
}

/** Model-validation messages of a coupon as it would be saved. */
export function couponModelErrors(draft: CouponDraft): string[] {
  const errors: string[] = [];
  if (draft.name.trim() === '') errors.push(COUPON_MESSAGES.nameBlank);
  if (draft.couponType === 'percentage' && !(draft.amount > 0 && draft.amount <= 100)) errors.push(COUPON_MESSAGES.percentageBounds);
  if (draft.couponType === 'fixed_amount' && !(draft.amount > 0)) errors.push(COUPON_MESSAGES.fixedAmountPositive);
  if (draft.startedAt !== null && draft.expiredAt !== null && draft.expiredAt <= draft.startedAt) {
    errors.push(COUPON_MESSAGES.expiryNotAfterStart);
  }
  if (draft.redemptionLimit !== null && draft.redemptionLimit < 1) errors.push(COUPON_MESSAGES.redemptionLimitPositive);
  return errors;
}

/**
 * Reads the BigInt timestamp inputs: `undefined` when omitted, `null` when explicitly null, the
 * number otherwise; an unreadable value adds a message to `errors`.
 */
export function readTimestamp(value: unknown, field: string, errors: string[]): number | null | undefined {
  if (value === undefined || value === null) return value;
  const parsed = bigIntTimestamp(value);
  if (parsed === undefined) errors.push(COUPON_MESSAGES.timestampInvalid(field));
  return parsed ?? null;
}
