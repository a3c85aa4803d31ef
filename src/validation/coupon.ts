import { toUnixSeconds } from '../client/types/timestamps.js';
import type { Timestamp } from '../client/types/types.js';
import { invalidInput, localCodedError, type LocalContext } from './local-errors.js';

const COUPON_TYPES = new Set(['fixed_amount', 'percentage']);

/** The coupon fields the client checks, on create and update alike. */
export interface CouponFieldsToCheck {
  couponType?: string | null | undefined;
  amount?: number | null | undefined;
  startedAt?: Timestamp | string | null | undefined;
  expiredAt?: Timestamp | string | null | undefined;
}

/**
 * Coupon rules the spec states exactly: the type is `fixed_amount` or `percentage` (COUPON-002);
 * a percentage amount is greater than 0 and at most 100; `expiredAt` is after `startedAt`.
 * On update only what the input itself shows is checked (the stored values are unknown here).
 */
export function checkCoupon(context: LocalContext, input: CouponFieldsToCheck): void {
  if (input.couponType !== undefined && input.couponType !== null && !COUPON_TYPES.has(input.couponType)) {
    throw localCodedError(context, 'COUPON-002');
  }
  // A non-finite amount is left to the schema-driven check, which names it as input.amount.
  if (input.couponType === 'percentage' && typeof input.amount === 'number' && Number.isFinite(input.amount) && !(input.amount > 0 && input.amount <= 100)) {
    throw invalidInput(context, 'amount', 'a percentage amount must be greater than 0 and at most 100');
  }
  const start = seconds(input.startedAt);
  const end = seconds(input.expiredAt);
  if (start !== undefined && end !== undefined && end <= start) {
    throw invalidInput(context, 'expiredAt', 'expiredAt must be after startedAt');
  }
}

function seconds(value: Timestamp | string | null | undefined): number | undefined {
  if (value === undefined || value === null) return undefined;
  const number = typeof value === 'string' ? Number(value) : toUnixSeconds(value);
  return Number.isFinite(number) ? number : undefined;
}
