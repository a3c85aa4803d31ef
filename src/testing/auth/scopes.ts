/**
 * Scopes per mutation field (spec, "Authentication"): a key needs any one of the listed scopes.
 * `updateSubscription` is configurable (`auth.updateSubscriptionScopes`) because the spec does not
 * show its scope.
 */
export const MUTATION_SCOPES: Readonly<Record<string, readonly string[]>> = {
  createConsultingService: ['courses:write'],
  updateConsultingService: ['courses:write'],
  deleteConsultingService: ['courses:write'],
  bulkCreateConsultingMeetings: ['courses:write'],
  updateConsultingMeeting: ['courses:write'],
  cancelConsultingMeeting: ['courses:write'],
  bulkCancelConsultingMeetings: ['courses:write'],
  enrollStudentToConsultingMeeting: ['students:write', 'members:write'],
  removeStudentFromConsultingMeeting: ['students:write', 'members:write'],
  rescheduleStudentConsultingMeeting: ['students:write', 'members:write'],
  rateConsultingMeeting: ['students:write', 'members:write'],
  createCoupon: ['coupons:write'],
  updateCoupon: ['coupons:write'],
  createCouponGrant: ['coupons:write'],
  revokeCouponGrant: ['coupons:write'],
};

/** A root field the key may not call, with the scopes of which it would need one. */
export interface MissingScope {
  field: string;
  anyOf: readonly string[];
}

/**
 * The first root field the key's scopes do not cover, or undefined when all are covered. Query
 * fields other than the spec's `couponGrants` (not in the schema) and `__` meta fields need only
 * a valid key.
 */
export function missingScope(
  operation: 'mutation' | 'query' | 'subscription',
  fields: readonly string[],
  scopes: readonly string[],
  updateSubscriptionScopes: readonly string[],
): MissingScope | undefined {
  if (operation !== 'mutation') return undefined;
  for (const field of fields) {
    const anyOf = field === 'updateSubscription' ? updateSubscriptionScopes : MUTATION_SCOPES[field];
    if (anyOf && !anyOf.some((scope) => scopes.includes(scope))) return { field, anyOf };
  }
  return undefined;
}
