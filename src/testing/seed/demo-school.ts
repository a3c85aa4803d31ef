import { ALL_SCOPES } from '../auth/api-keys.js';
import type { MeetingRecord, UserRecord } from '../model/records.js';
import type { Simulator } from '../simulator.js';
import type { SchoolSeeder } from './school-seeder.js';

/** The demo school's API key: every scope the spec names. */
export const DEMO_API_KEY = 'sk_live_demo_4f8a2c9e1b7d3a6f';

/** Constant ids of the demo school's named records. */
export const DEMO_IDS = {
  /** The demo school. */
  schoolId: 'd0000000-0000-4000-8000-000000000001',
  /** Olivia Owner, the school owner (the default meeting host). */
  ownerId: 'd0000000-0000-4000-8000-000000000010',
  /** Theo and Tina, the two teaching assistants (valid hosts and graders). */
  teachingAssistantIds: ['d0000000-0000-4000-8000-000000000011', 'd0000000-0000-4000-8000-000000000012'],
  /** The two lecturers (marketing profiles). */
  lecturerIds: ['d0000000-0000-4000-8000-000000000020', 'd0000000-0000-4000-8000-000000000021'],
  /** Python for Data Analysis and Public Speaking. */
  courseIds: ['d0000000-0000-4000-8000-000000000030', 'd0000000-0000-4000-8000-000000000031'],
  /** The "Session feedback" form of the custom-mode service. */
  ratingFormId: 'd0000000-0000-4000-8000-000000000040',
  /** The form's fields. */
  formFieldIds: {
    /** Required select: Excellent, Good, Fair, Poor. */
    overall: 'd0000000-0000-4000-8000-000000000041',
    /** Optional free text. */
    wentWell: 'd0000000-0000-4000-8000-000000000042',
    /** Optional multi-select: pandas, plotting, statistics. */
    topics: 'd0000000-0000-4000-8000-000000000043',
    /** An address field, which the admin API cannot answer (MEETING-015). */
    address: 'd0000000-0000-4000-8000-000000000044',
  },
  /** Rated by score (no form). */
  defaultModeServiceId: 'd0000000-0000-4000-8000-000000000050',
  /** Rated with the feedback form. */
  customModeServiceId: 'd0000000-0000-4000-8000-000000000051',
  /** The membership plans. */
  planIds: {
    /** Recurring monthly plan. */
    monthly: 'd0000000-0000-4000-8000-000000000060',
    /** Recurring yearly plan. */
    yearly: 'd0000000-0000-4000-8000-000000000061',
    /** Lifetime plan (no billing periods). */
    lifetime: 'd0000000-0000-4000-8000-000000000062',
  },
  /** One subscription per state, one pending cancellation, one on the lifetime plan. */
  subscriptionIds: {
    /** State `active`. */
    active: 'd0000000-0000-4000-8000-000000000070',
    /** State `incomplete`. */
    incomplete: 'd0000000-0000-4000-8000-000000000071',
    /** State `incomplete_expired`. */
    incomplete_expired: 'd0000000-0000-4000-8000-000000000072',
    /** State `trialing`. */
    trialing: 'd0000000-0000-4000-8000-000000000073',
    /** State `past_due`. */
    past_due: 'd0000000-0000-4000-8000-000000000074',
    /** State `canceled`. */
    canceled: 'd0000000-0000-4000-8000-000000000075',
    /** State `expired`. */
    expired: 'd0000000-0000-4000-8000-000000000076',
    /** Active, pending cancellation (`isCanceling`). */
    canceling: 'd0000000-0000-4000-8000-000000000077',
    /** On the lifetime plan. */
    lifetime: 'd0000000-0000-4000-8000-000000000078',
  },
  /** The standalone discount code {@link DEMO_DISCOUNT_CODE}. */
  discountCodeId: 'd0000000-0000-4000-8000-000000000080',
  /** ALUMNI25, a restricted (grant-only) 25% coupon. */
  restrictedCouponId: 'd0000000-0000-4000-8000-000000000081',
  /** SPRING15, a public 15% coupon. */
  publicCouponId: 'd0000000-0000-4000-8000-000000000082',
} as const;

/** The demo school's video-platform licence emails. */
export const DEMO_LICENCE_EMAILS = ['host-one@demo-school.example', 'host-two@demo-school.example'] as const;

/** The code of the demo's standalone discount code (new coupons cannot take it). */
export const DEMO_DISCOUNT_CODE = 'WELCOME10';

/** How many members the demo school has (deleted accounts included). */
export const DEMO_MEMBER_COUNT = 500;

/** Numbers (1-based) of the demo members whose accounts are deleted. */
export const DEMO_DELETED_MEMBER_NUMBERS = [13, 99, 250, 444] as const;

/** The email of demo member `n` (1 to {@link DEMO_MEMBER_COUNT}), e.g. `member-007@demo-school.example`. */
export function demoMemberEmail(n: number): string {
  return `member-${String(n).padStart(3, '0')}@demo-school.example`;
}

const FIRST_NAMES = ['Ada', 'Ben', 'Chloe', 'Dev', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kemi', 'Liam', 'Maya', 'Noor', 'Oskar', 'Priya', 'Quinn', 'Rosa', 'Sami', 'Tara'];
const LAST_NAMES = ['Okafor', 'Schmidt', 'Rossi', 'Tanaka', 'Silva', 'Novak', 'Haddad', 'Larsen', 'Moreau', 'Kowalski', 'Nguyen', 'Garcia', 'Ivanova', 'Mensah', 'Byrne', 'Costa', 'Yilmaz', 'Sato', 'Berg', 'Duarte'];

/** What {@link seedDemoSchool} created, for demos and tests. */
export interface DemoSchool {
  /** Adds more data to the demo school. */
  seeder: SchoolSeeder;
  /** {@link DEMO_API_KEY}, with every scope. */
  apiKey: string;
  /** Members in order: `members[n - 1]` has {@link demoMemberEmail}(n). */
  members: UserRecord[];
  /** Meetings in every state. */
  meetings: {
    /** Future, `available`, default-mode service. */
    open: MeetingRecord[];
    /** Future, `scheduled` with two attendees, capacity 3. */
    scheduled: MeetingRecord;
    /** `canceled`. */
    canceled: MeetingRecord;
    /** Ended, with one rated attendee. */
    past: MeetingRecord;
    /** Future, `available`, custom-mode service. */
    customOpen: MeetingRecord;
    /** Ended, custom-mode service, one attendee not rated yet. */
    customPast: MeetingRecord;
  };
}

const HOUR = 3600;
const DAY = 24 * HOUR;

/**
 * Seeds the demo school into a simulator: an owner, 2 teaching assistants, 2 lecturers, 2 courses,
 * a feedback form (custom rating mode) and a service without one (default mode), an active
 * video-platform integration with 2 licences, 500 members (4 deleted), 3 plans (one lifetime),
 * subscriptions in every state (one pending cancellation), meetings in every state, a standalone
 * discount code, a restricted and a public coupon, and {@link DEMO_API_KEY} with every scope.
 * Deterministic for a given clock time.
 */
export function seedDemoSchool(simulator: Simulator): DemoSchool {
  const school = simulator.addSchool({
    id: DEMO_IDS.schoolId,
    name: 'Demo School',
    currency: 'EUR',
    timezone: 'Europe/Berlin',
    owner: { id: DEMO_IDS.ownerId, name: 'Olivia Owner', email: 'owner@demo-school.example' },
  });
  const [ta1, ta2] = DEMO_IDS.teachingAssistantIds;
  school.addTeachingAssistant({ id: ta1, name: 'Theo Assistant', email: 'theo@demo-school.example' });
  school.addTeachingAssistant({ id: ta2, name: 'Tina Assistant', email: 'tina@demo-school.example' });
  const [lecturer1, lecturer2] = DEMO_IDS.lecturerIds;
  school.addLecturer({ id: lecturer1, name: 'Dr. Lena Lecturer' });
  school.addLecturer({ id: lecturer2, name: 'Prof. Luis Lecturer' });
  const [course1, course2] = DEMO_IDS.courseIds;
  school.addCourse({ id: course1, name: 'Python for Data Analysis' });
  school.addCourse({ id: course2, name: 'Public Speaking' });
  const fields = DEMO_IDS.formFieldIds;
  school.addForm({
    id: DEMO_IDS.ratingFormId,
    name: 'Session feedback',
    fields: [
      { id: fields.overall, label: 'Overall', type: 'select', required: true, options: ['Excellent', 'Good', 'Fair', 'Poor'] },
      { id: fields.wentWell, label: 'What went well?', type: 'textarea' },
      { id: fields.topics, label: 'Topics covered', type: 'multi_select', options: ['pandas', 'plotting', 'statistics'] },
      { id: fields.address, label: 'Postal address', type: 'address' },
    ],
  });
  school.setVideoIntegration({ active: true, licenceEmails: [...DEMO_LICENCE_EMAILS] });
  const members = school.addMembers(DEMO_MEMBER_COUNT, (index) => ({
    name: `${FIRST_NAMES[index % FIRST_NAMES.length]} ${LAST_NAMES[(index * 7 + 3) % LAST_NAMES.length]}`,
    email: demoMemberEmail(index + 1),
    deleted: (DEMO_DELETED_MEMBER_NUMBERS as readonly number[]).includes(index + 1),
  }));
  seedBilling(school, members);
  const meetings = seedConsulting(school, members, Math.floor(simulator.clock.now() / 1000));
  school.addDiscountCode({ id: DEMO_IDS.discountCodeId, code: DEMO_DISCOUNT_CODE });
  school.addCoupon({ id: DEMO_IDS.restrictedCouponId, name: 'Alumni thank-you', code: 'ALUMNI25', amount: 25, restricted: true });
  school.addCoupon({ id: DEMO_IDS.publicCouponId, name: 'Spring sale', code: 'SPRING15', amount: 15 });
  const apiKey = school.addApiKey({ key: DEMO_API_KEY, scopes: [...ALL_SCOPES] });
  return { seeder: school, apiKey, members, meetings };
}

function member(members: UserRecord[], n: number): string {
  const found = members[n - 1];
  if (!found) throw new Error(`Failed to seed the demo: member ${n} is missing.`);
  return found.id;
}

function seedBilling(school: SchoolSeeder, members: UserRecord[]): void {
  const plans = DEMO_IDS.planIds;
  school.addPlan({ id: plans.monthly, name: 'Monthly membership' });
  school.addPlan({ id: plans.yearly, name: 'Yearly membership' });
  school.addPlan({ id: plans.lifetime, name: 'Lifetime access', lifetime: true });
  const subs = DEMO_IDS.subscriptionIds;
  const states = ['active', 'incomplete', 'incomplete_expired', 'trialing', 'past_due', 'canceled', 'expired'] as const;
  states.forEach((state, index) => {
    school.addSubscription({ id: subs[state], userId: member(members, index + 1), planId: index % 2 ? plans.yearly : plans.monthly, state });
  });
  school.addSubscription({ id: subs.canceling, userId: member(members, 8), planId: plans.monthly, isCanceling: true });
  school.addSubscription({ id: subs.lifetime, userId: member(members, 9), planId: plans.lifetime });
}

function seedConsulting(school: SchoolSeeder, members: UserRecord[], now: number): DemoSchool['meetings'] {
  const [ta1, ta2] = DEMO_IDS.teachingAssistantIds;
  const [course1, course2] = DEMO_IDS.courseIds;
  const defaultService = DEMO_IDS.defaultModeServiceId;
  const customService = DEMO_IDS.customModeServiceId;
  school.addService({ id: defaultService, courseId: course1, name: 'Python office hours', published: true, tags: ['python', '1:1'], lecturerId: DEMO_IDS.lecturerIds[0], backgroundColor: '#2D6CDF' });
  school.addService({ id: customService, courseId: course2, name: 'Speech coaching', published: true, ratingFormId: DEMO_IDS.ratingFormId, lecturerId: DEMO_IDS.lecturerIds[1] });
  const tomorrow = now - (now % DAY) + DAY + 9 * HOUR;
  const open = [0, 1, 2].map((n) =>
    school.addMeeting({ serviceId: defaultService, startedAt: tomorrow + n * HOUR, endedAt: tomorrow + n * HOUR + 45 * 60, hostUserId: ta1, hostingType: 'live_session', maxAttendeeCapacity: 1 }),
  );
  const scheduled = school.addMeeting({
    serviceId: defaultService,
    startedAt: tomorrow + DAY,
    endedAt: tomorrow + DAY + HOUR,
    hostUserId: ta2,
    hostingType: 'videoconf',
    hostEmail: DEMO_LICENCE_EMAILS[1],
    maxAttendeeCapacity: 3,
    attendeeIds: [member(members, 20), member(members, 21)],
  });
  const canceled = school.addMeeting({ serviceId: defaultService, startedAt: tomorrow + 2 * DAY, endedAt: tomorrow + 2 * DAY + HOUR, canceled: true });
  const past = school.addMeeting({ serviceId: defaultService, startedAt: now - 2 * DAY, endedAt: now - 2 * DAY + HOUR, hostUserId: ta1, attendeeIds: [member(members, 30)] });
  school.addRating({ meetingId: past.id, userId: member(members, 30), score: 9, comment: 'Well prepared.' });
  const customOpen = school.addMeeting({ serviceId: customService, startedAt: tomorrow + 3 * HOUR, endedAt: tomorrow + 4 * HOUR, hostUserId: ta2, hostingType: 'custom', joinUrl: 'https://meet.demo-school.example/speech' });
  const customPast = school.addMeeting({ serviceId: customService, startedAt: now - DAY, endedAt: now - DAY + HOUR, hostUserId: ta2, attendeeIds: [member(members, 40)] });
  return { open, scheduled, canceled, past, customOpen, customPast };
}
