import { fail } from '../graphql/coded-error.js';
import type { ResolverContext } from '../graphql/resolver-context.js';
import { meetingView, userView } from '../graphql/views.js';
import type { MeetingRecord, UserRecord } from '../model/records.js';
import { ratingKey, type SchoolModel } from '../model/school.js';
import { findOpenMeeting } from './meeting-lookup.js';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** MEETING-004 when the meeting's capacity is set (not 0 or null) and reached. */
function assertRoom(meeting: MeetingRecord): void {
  const capacity = meeting.maxAttendeeCapacity ?? 0;
  if (capacity > 0 && meeting.attendeeIds.length >= capacity) {
    fail('MEETING-004', 'meeting is at maximum attendee capacity', {
      meetingId: meeting.id,
      maxAttendeeCapacity: meeting.maxAttendeeCapacity,
    });
  }
}

/** Adds a student; the first enrollment moves `available` to `scheduled`. MEETING-004 when full. */
export function addAttendee(meeting: MeetingRecord, userId: string, now: number): void {
  assertRoom(meeting);
  meeting.attendeeIds.push(userId);
  if (meeting.state === 'available') meeting.state = 'scheduled';
  meeting.updatedAt = now;
}

/**
 * Removes a student and their rating of the meeting; a `scheduled` meeting left empty reverts to
 * `available` (discoverable again through state filters).
 */
export function removeAttendee(school: SchoolModel, meeting: MeetingRecord, userId: string, now: number): void {
  meeting.attendeeIds = meeting.attendeeIds.filter((id) => id !== userId);
  school.tables.ratings.delete(ratingKey(meeting.id, userId));
  if (meeting.state === 'scheduled' && meeting.attendeeIds.length === 0) meeting.state = 'available';
  meeting.updatedAt = now;
}

/** The student to enroll: an existing member, or the data of one to create by email. */
type Enrollee = { user: UserRecord } | { create: { email: string; name: string } };

function resolveEnrollee(school: SchoolModel, args: { userId?: string | null; email?: string | null; name?: string | null }): Enrollee {
  // With both userId and email the userId identifies the student (docs/simulator.md).
  if (args.userId !== null && args.userId !== undefined) {
    const user = school.member(args.userId);
    if (!user) fail('ENROLLMENT-002', 'user not found in this school', { userId: args.userId });
    return { user };
  }
  const email = (args.email ?? '').trim();
  if (!EMAIL_PATTERN.test(email)) fail('ENROLLMENT-006', 'email is missing or invalid');
  const existing = school.memberByEmail(email);
  if (existing) return { user: existing };
  if (school.anyUserByEmail(email)) {
    fail('ENROLLMENT-005', 'student creation failed: the email belongs to another account of the school (deleted or staff)');
  }
  const name = (args.name ?? '').trim();
  if (name === '') fail('ENROLLMENT-007', 'name is required to create a student by email');
  return { create: { email, name } };
}

/**
 * `enrollStudentToConsultingMeeting`: idempotent (an enrolled student is a no-op); with an email
 * that matches no member a school-scoped student is created (no email is sent).
 */
export function enrollStudentToConsultingMeeting(
  args: { meetingId: string; userId?: string | null; email?: string | null; name?: string | null },
  ctx: ResolverContext,
) {
  const { school, now, ids } = ctx;
  if ((args.userId === null || args.userId === undefined) && (args.email === null || args.email === undefined)) {
    fail('ENROLLMENT-001', 'one of userId or email is required');
  }
  const meeting = findOpenMeeting(school, args.meetingId);
  const enrollee = resolveEnrollee(school, args);
  if ('user' in enrollee && meeting.attendeeIds.includes(enrollee.user.id)) {
    return { meeting: meetingView(school, meeting), user: userView(enrollee.user), errors: null };
  }
  // Capacity first: a full meeting must not leave a newly created student behind.
  assertRoom(meeting);
  let user: UserRecord;
  if ('user' in enrollee) {
    user = enrollee.user;
  } else {
    user = { id: ids.uuid(), ...enrollee.create, roles: ['member'], deletedAt: null, createdAt: now, createdVia: 'admin_api' };
    school.tables.users.set(user.id, user);
  }
  addAttendee(meeting, user.id, now);
  return { meeting: meetingView(school, meeting), user: userView(user), errors: null };
}

/** `removeStudentFromConsultingMeeting`: MEETING-006 when the student is not enrolled. */
export function removeStudentFromConsultingMeeting(args: { meetingId: string; userId: string }, ctx: ResolverContext) {
  const { school, now } = ctx;
  const meeting = findOpenMeeting(school, args.meetingId);
  if (!meeting.attendeeIds.includes(args.userId)) {
    fail('MEETING-006', 'student is not enrolled in the meeting', { meetingId: meeting.id, userId: args.userId });
  }
  removeAttendee(school, meeting, args.userId, now);
  return { meeting: meetingView(school, meeting), errors: null };
}

/**
 * `rescheduleStudentConsultingMeeting`: one transaction that removes the student from the source
 * and enrolls them into the target; a full target rolls everything back. Convergent: a student
 * already in the target is only removed from the source.
 */
export function rescheduleStudentConsultingMeeting(
  args: { userId: string; fromMeetingId: string; toMeetingId: string },
  ctx: ResolverContext,
) {
  const { school, now } = ctx;
  if (args.fromMeetingId === args.toMeetingId) {
    fail('MEETING-019', 'source and target meetings are the same', { meetingId: args.fromMeetingId });
  }
  const source = findOpenMeeting(school, args.fromMeetingId, 'source');
  const target = findOpenMeeting(school, args.toMeetingId, 'target');
  const inSource = source.attendeeIds.includes(args.userId);
  const inTarget = target.attendeeIds.includes(args.userId);
  if (!inSource && !inTarget) {
    fail('MEETING-006', 'student is enrolled in neither meeting', { userId: args.userId });
  }
  if (inSource && source.endedAt <= now) {
    fail('MEETING-020', 'the source meeting has already ended; moving the student would destroy its rating', {
      meetingId: source.id,
      endedAt: source.endedAt,
    });
  }
  return school.transaction(() => {
    // Removal first: when the target turns out full, the rollback puts the student back.
    if (inSource) removeAttendee(school, source, args.userId, now);
    if (!inTarget) addAttendee(target, args.userId, now);
    return { fromMeeting: meetingView(school, source), toMeeting: meetingView(school, target), errors: null };
  });
}
