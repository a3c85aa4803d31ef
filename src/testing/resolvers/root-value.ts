import type { OperationName } from '../../client/facade/operations.js';
import type { ResolverContext } from '../graphql/resolver-context.js';
import { bulkCreateConsultingMeetings } from './bulk-create-meetings.js';
import { bulkCancelConsultingMeetings, cancelConsultingMeeting } from './cancel-meetings.js';
import { createCoupon, updateCoupon } from './coupons.js';
import {
  enrollStudentToConsultingMeeting,
  removeStudentFromConsultingMeeting,
  rescheduleStudentConsultingMeeting,
} from './enrollment.js';
import { createCouponGrant, revokeCouponGrant } from './grants.js';
import { rateConsultingMeeting } from './rating.js';
import { createConsultingService, deleteConsultingService, updateConsultingService } from './services.js';
import { updateSubscription } from './subscriptions.js';
import { updateConsultingMeeting } from './update-meeting.js';

/** Every documented mutation field and its resolver. */
export const MUTATION_RESOLVERS = {
  updateSubscription,
  createConsultingService,
  updateConsultingService,
  deleteConsultingService,
  bulkCreateConsultingMeetings,
  updateConsultingMeeting,
  cancelConsultingMeeting,
  bulkCancelConsultingMeetings,
  enrollStudentToConsultingMeeting,
  removeStudentFromConsultingMeeting,
  rescheduleStudentConsultingMeeting,
  rateConsultingMeeting,
  createCoupon,
  updateCoupon,
  createCouponGrant,
  revokeCouponGrant,
} as const satisfies Record<MutationField, unknown>;

/** The name of a documented mutation field (the same 16 the client's operations table names). */
export type MutationField = OperationName;

type RootResolver = (args: Record<string, unknown>, ctx: ResolverContext) => unknown;

/**
 * The root value graphql-js resolves root fields from. `beforeExecute` runs before each resolver
 * (to count executions and to inject faults: what it throws becomes GENERAL-001).
 */
export function createRootValue(beforeExecute: (field: string) => void): Record<string, RootResolver> {
  const root: Record<string, RootResolver> = {
    // The schema's placeholder query field.
    _unused: () => null,
  };
  for (const [field, resolve] of Object.entries(MUTATION_RESOLVERS)) {
    root[field] = (args, ctx) => {
      beforeExecute(field);
      return (resolve as RootResolver)(args, ctx);
    };
  }
  return root;
}
