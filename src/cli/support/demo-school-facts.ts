import { DEMO_DELETED_MEMBER_NUMBERS, DEMO_IDS, DEMO_MEMBER_COUNT, demoMemberEmail } from '../../testing/index.js';

/**
 * What the demo seed holds that the other commands need (ids a new user could not guess), one
 * line each, for the mock server's banner and help.
 */
export function demoSchoolFacts(): string[] {
  const deleted = DEMO_DELETED_MEMBER_NUMBERS.join(', ');
  return [
    'Demo school (time zone Europe/Berlin):',
    `  members            ${demoMemberEmail(1)} ... ${demoMemberEmail(DEMO_MEMBER_COUNT)} (numbers ${deleted} are deleted accounts)`,
    `  restricted coupon  ALUMNI25 ${DEMO_IDS.restrictedCouponId}   (grant-coupon --coupon)`,
    `  services           Python office hours ${DEMO_IDS.defaultModeServiceId}   (create-slots --service)`,
    `                     Speech coaching     ${DEMO_IDS.customModeServiceId}`,
  ];
}
