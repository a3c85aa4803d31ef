import type { AdminCouponInput, AdminCouponUpdateInput } from '../../generated/graphql.js';
import { fail } from '../graphql/coded-error.js';
import type { ResolverContext } from '../graphql/resolver-context.js';
import { couponView } from '../graphql/views.js';
import type { CouponRecord } from '../model/records.js';
import type { SchoolModel } from '../model/school.js';
import { COUPON_MESSAGES, couponModelErrors, couponType, readTimestamp } from './coupon-rules.js';

function rejected(errors: string[]) {
  return { coupon: null, errors };
}

/** IDs of the selectable catalog, in order and without repeats; `kept` survive even when outside it. */
function selectableItems(school: SchoolModel, itemIds: readonly string[], kept: readonly string[] = []): string[] {
  return [...new Set(itemIds)].filter((id) => school.isSelectableItem(id) || kept.includes(id));
}

/** A generated readable code that no non-deleted coupon or discount code holds. */
function freshCode(ctx: ResolverContext): string {
  let code = ctx.ids.couponCode();
  while (ctx.school.codeTaken(code)) code = ctx.ids.couponCode();
  return code;
}

/**
 * `createCoupon`: defaults `active: true`, `oncePerUser: false`, `restricted: false`, unlimited
 * redemptions and dates; whitespace is stripped from `code` and a 6-character code is generated
 * when it is omitted. The coupon gets its discount code (the id `payment.paid` carries).
 */
export function createCoupon(args: { input: AdminCouponInput }, ctx: ResolverContext) {
  const { school, now, ids } = ctx;
  const { input } = args;
  const type = couponType(input.couponType);
  const errors: string[] = [];
  const startedAt = readTimestamp(input.startedAt, 'startedAt', errors) ?? null;
  const expiredAt = readTimestamp(input.expiredAt, 'expiredAt', errors) ?? null;
  const draft = { name: input.name, couponType: type, amount: input.amount, startedAt, expiredAt, redemptionLimit: input.redemptionLimit ?? null };
  errors.push(...couponModelErrors(draft));
  const requested = (input.code ?? '').replace(/\s+/g, '');
  if (requested !== '' && school.codeTaken(requested)) errors.push(COUPON_MESSAGES.codeTaken);
  if (errors.length > 0) return rejected(errors);
  const coupon: CouponRecord = {
    id: ids.uuid(),
    ...draft,
    name: input.name.trim(),
    code: requested || freshCode(ctx),
    description: input.description ?? null,
    active: input.active ?? true,
    restricted: input.restricted ?? false,
    oncePerUser: input.oncePerUser ?? false,
    itemIds: selectableItems(school, input.itemIds ?? []),
    appliedCount: 0,
    deletedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  school.tables.coupons.set(coupon.id, coupon);
  const discountId = ids.uuid();
  school.tables.discountCodes.set(discountId, { id: discountId, code: coupon.code, couponId: coupon.id, deletedAt: null, createdAt: now });
  return { coupon: couponView(school, coupon, now), errors: null };
}

/**
 * `updateCoupon`: partial; `description`, `startedAt`, `expiredAt` and `redemptionLimit` are
 * cleared by null, `active` and `oncePerUser` ignore null, and `itemIds` replaces the selection
 * (null or omitted keeps it; IDs the coupon already holds survive the catalog filter).
 */
export function updateCoupon(args: { id: string; input: AdminCouponUpdateInput }, ctx: ResolverContext) {
  const { school, now } = ctx;
  const { input } = args;
  const coupon = school.liveCoupon(args.id);
  if (!coupon) fail('COUPON-001', 'coupon not found', { couponId: args.id });
  const type = input.couponType === undefined || input.couponType === null ? coupon.couponType : couponType(input.couponType);
  const errors: string[] = [];
  const startedAt = readTimestamp(input.startedAt, 'startedAt', errors);
  const expiredAt = readTimestamp(input.expiredAt, 'expiredAt', errors);
  const draft = {
    name: input.name ?? coupon.name,
    couponType: type,
    amount: input.amount ?? coupon.amount,
    startedAt: startedAt === undefined ? coupon.startedAt : startedAt,
    expiredAt: expiredAt === undefined ? coupon.expiredAt : expiredAt,
    redemptionLimit: input.redemptionLimit === undefined ? coupon.redemptionLimit : input.redemptionLimit,
  };
  errors.push(...couponModelErrors(draft));
  if (errors.length > 0) return rejected(errors);
  Object.assign(coupon, draft, { name: draft.name.trim(), updatedAt: now });
  if (input.description !== undefined) coupon.description = input.description;
  if (input.active !== undefined && input.active !== null) coupon.active = input.active;
  if (input.oncePerUser !== undefined && input.oncePerUser !== null) coupon.oncePerUser = input.oncePerUser;
  if (input.itemIds !== undefined && input.itemIds !== null) coupon.itemIds = selectableItems(school, input.itemIds, coupon.itemIds);
  return { coupon: couponView(school, coupon, now), errors: null };
}
