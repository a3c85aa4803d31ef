import type { ResolverContext } from '../graphql/resolver-context.js';
import { subscriptionView } from '../graphql/views.js';

/** The spec's rejection messages of `updateSubscription`, verbatim. */
export const SUBSCRIPTION_MESSAGES = {
  /** The id is unknown. */
  notFound: 'Subscription not found',
  /** The plan is a lifetime plan. */
  lifetime: 'Cannot update period for lifetime subscriptions',
  /** The state is `canceled`. */
  canceled: 'Cannot update an already cancelled subscription',
  /** `isCanceling` is true. */
  pendingCancellation: 'Cannot update a subscription that is pending cancellation. Use cancelSubscription mutation instead.',
  /** The new end is more than 10 years ahead. */
  tooFarInFuture: 'Timestamp cannot be more than 10 years in the future',
  /** The new end is more than 1 year ago. */
  tooFarInPast: 'Timestamp cannot be more than 1 year in the past',
  /** The new end is before the current period start. */
  beforePeriodStart: 'Cannot set end date earlier than current period start',
} as const;

/** `now` moved by whole calendar years (UTC), as "10 years in the future" reads. */
function shiftYears(unixSeconds: number, years: number): number {
  const date = new Date(unixSeconds * 1000);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  return Math.floor(date.getTime() / 1000);
}

function rejected(message: string) {
  return { errors: [message], subscription: null };
}

/**
 * `updateSubscription`: moves the end of the current period. Every rejection is a payload
 * message (the spec identifies them by text only), checked in the spec's order.
 */
export function updateSubscription(args: { id: string; currentPeriodEnd: number }, ctx: ResolverContext) {
  const { school, now } = ctx;
  const subscription = school.tables.subscriptions.get(args.id);
  if (!subscription) return rejected(SUBSCRIPTION_MESSAGES.notFound);
  if (school.tables.plans.get(subscription.planId)?.lifetime) return rejected(SUBSCRIPTION_MESSAGES.lifetime);
  if (subscription.state === 'canceled') return rejected(SUBSCRIPTION_MESSAGES.canceled);
  if (subscription.isCanceling) return rejected(SUBSCRIPTION_MESSAGES.pendingCancellation);
  const end = args.currentPeriodEnd;
  if (end > shiftYears(now, 10)) return rejected(SUBSCRIPTION_MESSAGES.tooFarInFuture);
  if (end < shiftYears(now, -1)) return rejected(SUBSCRIPTION_MESSAGES.tooFarInPast);
  if (subscription.currentPeriodStart !== null && end < subscription.currentPeriodStart) {
    return rejected(SUBSCRIPTION_MESSAGES.beforePeriodStart);
  }
  subscription.currentPeriodEnd = end;
  // The next charge of a recurring subscription falls at the end of the current period.
  if (subscription.nextChargeDate !== null) subscription.nextChargeDate = end;
  return { errors: [], subscription: subscriptionView(school, subscription) };
}
