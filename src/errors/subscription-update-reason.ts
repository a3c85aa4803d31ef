/**
 * The documented rejection messages of `updateSubscription`, verbatim from the spec, each with the
 * stable name `PayloadError.reason` carries. The spec gives no codes for them, only these texts.
 */
export const SUBSCRIPTION_UPDATE_REASONS = {
  /** The id is unknown. */
  'Subscription not found': 'not_found',
  /** The plan is a lifetime plan (no billing periods). */
  'Cannot update period for lifetime subscriptions': 'lifetime_plan',
  /** The subscription's state is `canceled`. */
  'Cannot update an already cancelled subscription': 'already_canceled',
  /** `isCanceling` is true: every update is blocked. */
  'Cannot update a subscription that is pending cancellation. Use cancelSubscription mutation instead.':
    'pending_cancellation',
  /** The new end is more than 10 years ahead. */
  'Timestamp cannot be more than 10 years in the future': 'too_far_in_future',
  /** The new end is more than 1 year ago. */
  'Timestamp cannot be more than 1 year in the past': 'too_far_in_past',
  /** The new end is before the current period's start. */
  'Cannot set end date earlier than current period start': 'before_period_start',
} as const;

/** Why `updateSubscriptionPeriod` was refused, for each message the spec documents. */
export type SubscriptionUpdateReason = (typeof SUBSCRIPTION_UPDATE_REASONS)[keyof typeof SUBSCRIPTION_UPDATE_REASONS];

/** Maps a server message to its reason; tolerant of surrounding whitespace and a missing final period. */
export function subscriptionUpdateReason(message: string): SubscriptionUpdateReason | undefined {
  const wanted = normalise(message);
  for (const [text, reason] of Object.entries(SUBSCRIPTION_UPDATE_REASONS)) {
    if (normalise(text) === wanted) return reason;
  }
  return undefined;
}

function normalise(text: string): string {
  return text.trim().replace(/\.$/, '');
}
