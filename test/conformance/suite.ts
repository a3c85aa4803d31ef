import { bulkCreateMeetingsSection } from './sections/bulk-create-meetings.js';
import { consultingServicesSection } from './sections/consulting-services.js';
import { couponsSection } from './sections/coupons.js';
import { enrollmentSection } from './sections/enrollment.js';
import { grantsSection } from './sections/grants.js';
import { limitsAndAuthSection } from './sections/limits-and-auth.js';
import { meetingLifecycleSection } from './sections/meeting-lifecycle.js';
import { ratingSection } from './sections/rating.js';
import { subscriptionsSection } from './sections/subscriptions.js';
import type { ConformanceTarget } from './support/targets.js';

/**
 * The conformance suite: one section per operation or rule section of the spec, run through the
 * SDK against the simulator reached through `target`.
 */
export function conformanceSuite(target: ConformanceTarget): void {
  subscriptionsSection(target);
  consultingServicesSection(target);
  bulkCreateMeetingsSection(target);
  meetingLifecycleSection(target);
  enrollmentSection(target);
  ratingSection(target);
  couponsSection(target);
  grantsSection(target);
  limitsAndAuthSection(target);
}
