/*
 * The spec's enumerated strings, as unions of the documented values. Result fields add
 * `| (string & {})` to these: a server may start sending a value the spec does not list yet, and a
 * result type that claimed otherwise would lie. `(string & {})` keeps editor completion for the
 * documented values while accepting any other string. Inputs use the plain unions, since the
 * client or the server refuses anything else.
 */

/**
 * The state of a subscription: `active`, `incomplete`, `incomplete_expired`, `trialing`,
 * `past_due`, `canceled` or `expired` (spec: Subscription `state`). Transitions between these
 * states are not shown in the spec.
 */
export type SubscriptionState = 'active' | 'incomplete' | 'incomplete_expired' | 'trialing' | 'past_due' | 'canceled' | 'expired';

/**
 * The state of a consulting meeting: `available` (no attendee yet), `scheduled` (at least one
 * attendee) or `canceled` (final; further changes are refused with MEETING-007).
 */
export type MeetingState = 'available' | 'scheduled' | 'canceled';

/**
 * How a meeting is hosted (`AdminMeetingHostingType`): `videoconf` (an external video-platform
 * meeting provisioned through the school's integration), `live_session` or `custom` (needs a
 * `joinUrl`, else MEETING-008).
 */
export type MeetingHostingType = 'videoconf' | 'live_session' | 'custom';

/**
 * The kind of discount: `fixed_amount` (an amount in the school currency) or `percentage`
 * (greater than 0 and at most 100). Any other value is refused with COUPON-002.
 */
export type CouponType = 'fixed_amount' | 'percentage';

/**
 * The status of a coupon grant: `granted` (held, not used), `redeemed` (used at checkout),
 * `revoked`, or `expired` (not redeemed and the coupon itself has expired). A grant on a
 * deactivated coupon still reports `granted`.
 */
export type CouponGrantStatus = 'granted' | 'redeemed' | 'revoked' | 'expired';
