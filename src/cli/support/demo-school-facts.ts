import { DEMO_DELETED_MEMBER_NUMBERS, DEMO_IDS, DEMO_MEMBER_COUNT, demoMemberEmail, type DemoSchool } from '../../testing/index.js';

/** One id of the demo school: the name the README's examples give it, the id, and what it is. */
interface DemoFact {
  name: string;
  id: string;
  what: string;
}

/**
 * The ids of the demo school that the README's examples and the other commands need, one line
 * each, named as the examples name them (`couponId`, `courseId`, `meetingId`, ...), for the mock
 * server's banner and help. `demo` is the seeded school: its meeting and member ids come from the
 * seed (the same in every fresh simulator).
 */
export function demoSchoolFacts(demo: DemoSchool): string[] {
  const [open1, open2] = demo.meetings.open;
  const [ta1] = DEMO_IDS.teachingAssistantIds;
  const [course1, course2] = DEMO_IDS.courseIds;
  const enrolled = demo.members[19];
  const facts: DemoFact[] = [
    { name: 'couponId', id: DEMO_IDS.restrictedCouponId, what: 'ALUMNI25, restricted' },
    { name: 'courseId', id: course1, what: 'Python for Data Analysis' },
    { name: '', id: course2, what: 'Public Speaking' },
    { name: 'serviceId', id: DEMO_IDS.defaultModeServiceId, what: 'Python office hours' },
    { name: '', id: DEMO_IDS.customModeServiceId, what: 'Speech coaching' },
    { name: 'meetingId', id: open1?.id ?? '', what: 'open slot, capacity 1' },
    { name: 'fromMeetingId', id: demo.meetings.scheduled.id, what: 'userId is enrolled' },
    { name: 'toMeetingId', id: open2?.id ?? '', what: 'open slot, capacity 1' },
    { name: 'userId', id: enrolled?.id ?? '', what: 'member-020' },
    { name: 'taId', id: ta1, what: 'Theo, a valid host' },
    { name: 'subscriptionId', id: DEMO_IDS.subscriptionIds.active, what: 'active, monthly' },
  ];
  const pad = (name: string): string => `  ${name.padEnd(Math.max(...facts.map((fact) => fact.name.length)))}  `;
  const deleted = DEMO_DELETED_MEMBER_NUMBERS.join(', ');
  return [
    "Demo school (time zone Europe/Berlin), with the ids the README's examples use:",
    ...facts.map((fact) => `${pad(fact.name)}${fact.id}  ${fact.what}`),
    `${pad('members')}${demoMemberEmail(1).replace('001', 'NNN')}, NNN from 001 to ${String(DEMO_MEMBER_COUNT).padStart(3, '0')}`,
    `${pad('')}(${deleted} are deleted accounts)`,
    // Rating a meeting in the other mode is refused (MEETING-013).
    `${pad('rateMeeting')}Python office hours is rated by score (0.5 to 10), Speech coaching by the answers to its form`,
    'grant-coupon --coupon takes a couponId; create-slots --service a serviceId.',
  ];
}
