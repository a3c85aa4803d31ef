/**
 * The documented rejection messages of `updateSubscription`, verbatim from the spec, each with the
 * stable name `PayloadError.reason` carries. The spec gives no codes for them, only these texts.
 */
export const SUBSCRIPTION_UPDATE_REASONS = {
  'Subscription not found': 'not_found',
  'Cannot update period for lifetime subscriptions': 'lifetime_plan',
  'Cannot update an already cancelled subscription': 'already_canceled',
  'Cannot update a subscription that is pending cancellation. Use cancelSubscription mutation instead.':
    'pending_cancellation',
  'Timestamp cannot be more than 10 years in the future': 'too_far_in_future',
  'Timestamp cannot be more than 1 year in the past': 'too_far_in_past',
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
