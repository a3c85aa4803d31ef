import type { GraphQLError } from 'graphql';
import { adminSchemaSDL } from '../../../src/generated/schema-sdl.js';
import type { Coupon } from '../../../src/index.js';
import { serverGraphQL } from './server-graphql.js';

/** The key the servers accept; anything else is refused with 401 by the server's context. */
export const SERVER_API_KEY = 'sk_live_real_servers_5b1e9c0d7a';

/** The name of a coupon whose creation is stored, then fails with an unexpected (masked) error. */
export const FAILS_AFTER_STORING = 'fails after storing';

/** Which admin schema a server runs: the SDK's, or a deployed one that lacks `AdminCoupon.appliedCount`. */
export type SchemaVersion = 'current' | 'without-applied-count';

const APPLIED_COUNT = '  appliedCount: Int\n';

/** The admin SDL of `version` (the SDK's own SDL, graphql/schema.graphql). */
export function adminTypeDefs(version: SchemaVersion): string {
  if (version === 'current') return adminSchemaSDL;
  if (!adminSchemaSDL.includes(APPLIED_COUNT)) throw new Error('adminTypeDefs: AdminCoupon.appliedCount is no longer in the SDL; update the drift fixture');
  return adminSchemaSDL.replace(APPLIED_COUNT, '');
}

/** A coupon as the resolvers keep it: the SDK's `Coupon`, with no grants (none are made here). */
type StoredCoupon = Omit<Coupon, 'grants'> & { grants: never[] };

type Args = Record<string, unknown>;
type Input = Record<string, unknown>;

/** A coded error as the spec's Errors section shows it: `extensions.error { code, message, details }`. */
function codedError(code: string, message: string, details: Record<string, unknown>): GraphQLError {
  return new serverGraphQL.GraphQLError(message, { extensions: { error: { code, message, details } } });
}

/**
 * The coupon mutations, enough to show each kind of answer through a real server: a typed result,
 * a coded error (COUPON-001, COUPON-002), a payload error (a code already taken) and an
 * unexpected failure after the coupon was stored (the server masks it). `coupons` is the store
 * the test inspects.
 */
export function couponResolvers(coupons: Map<string, StoredCoupon>) {
  let next = 0;
  const createCoupon = (_root: unknown, { input }: Args) => {
    const fields = input as Input;
    if (fields.couponType !== 'fixed_amount' && fields.couponType !== 'percentage') {
      throw codedError('COUPON-002', 'Invalid coupon type', { couponType: fields.couponType });
    }
    if (typeof fields.code === 'string' && [...coupons.values()].some((coupon) => coupon.code === fields.code)) {
      return { coupon: null, errors: ['Code has already been taken'] };
    }
    next += 1;
    const coupon: StoredCoupon = {
      id: `00000000-0000-4000-8000-${String(next).padStart(12, '0')}`,
      name: fields.name as string,
      code: (fields.code as string | undefined) ?? `CODE${String(next).padStart(2, '0')}`,
      couponType: fields.couponType,
      amount: fields.amount as number,
      active: (fields.active as boolean | undefined) ?? true,
      restricted: (fields.restricted as boolean | undefined) ?? false,
      oncePerUser: (fields.oncePerUser as boolean | undefined) ?? false,
      redemptionLimit: (fields.redemptionLimit as number | undefined) ?? null,
      startedAt: (fields.startedAt as number | undefined) ?? null,
      expiredAt: (fields.expiredAt as number | undefined) ?? null,
      appliedCount: 0,
      grants: [],
    };
    coupons.set(coupon.id, coupon);
    // Stored, then the resolver fails: what a lost database connection after a commit looks like.
    if (coupon.name === FAILS_AFTER_STORING) throw new Error(`lost the connection to db-primary after storing coupon ${coupon.id}`);
    return { coupon, errors: null };
  };
  const updateCoupon = (_root: unknown, { id, input }: Args) => {
    const coupon = coupons.get(id as string);
    if (coupon === undefined) throw codedError('COUPON-001', 'Coupon not found', { id });
    Object.assign(coupon, Object.fromEntries(Object.entries(input as Input).filter(([, value]) => value !== null && value !== undefined)));
    return { coupon, errors: null };
  };
  return { Mutation: { createCoupon, updateCoupon } };
}

/** A new, empty coupon store. */
export function couponStore(): Map<string, StoredCoupon> {
  return new Map();
}

/** The 401 a server's context raises for a missing or unknown key (extensions.http sets the status in both servers). */
export function unauthenticated(): GraphQLError {
  return new serverGraphQL.GraphQLError('Failed to authenticate: the API key is not valid.', { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });
}
