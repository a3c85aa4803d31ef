import type { AnswerInput } from '../../generated/graphql.js';
import { fail } from '../graphql/coded-error.js';
import type { ResolverContext } from '../graphql/resolver-context.js';
import { ratingView } from '../graphql/views.js';
import type { AnswerRecord, RatingRecord, UserRecord } from '../model/records.js';
import { ratingKey, type SchoolModel } from '../model/school.js';
import { findOpenMeeting } from './meeting-lookup.js';
import { validateAnswers } from './rating-answers.js';

/** Arguments of `rateConsultingMeeting`. */
export interface RateArgs {
  meetingId: string;
  userId?: string | null;
  email?: string | null;
  raterId?: string | null;
  score?: number | null;
  comment?: string | null;
  answers?: AnswerInput[] | null;
}

const given = <T>(value: T | null | undefined): value is T => value !== null && value !== undefined;

/** 0.5 to 10 in steps of 0.5. */
function validScore(score: number): boolean {
  return score >= 0.5 && score <= 10 && Number.isInteger(score * 2);
}

function findStudent(school: SchoolModel, args: RateArgs): UserRecord {
  const student = given(args.userId) ? school.member(args.userId) : school.memberByEmail(args.email ?? '');
  if (!student) fail('ENROLLMENT-002', 'student not found in this school', given(args.userId) ? { userId: args.userId } : {});
  return student;
}

function grader(school: SchoolModel, raterId: string | null | undefined, hostUserId: string): string {
  if (given(raterId)) {
    if (!school.isHost(raterId)) fail('MEETING-017', 'raterId must be the school owner or a teaching assistant', { raterId });
    return raterId;
  }
  if (!school.isHost(hostUserId)) {
    fail('MEETING-018', 'raterId omitted and the meeting host is not a valid grader', { hostUserId });
  }
  return hostUserId;
}

/** The rating content for the service's mode: `score`/`comment` (default) or `answers` (custom). */
function ratingContent(school: SchoolModel, formId: string | null, args: RateArgs) {
  if (formId === null) {
    if (given(args.answers)) fail('MEETING-013', 'this service rates by score (no rating form): send score, not answers');
    if (!given(args.score) || !validScore(args.score)) {
      fail('MEETING-014', 'score is required and must be 0.5 to 10 in steps of 0.5', given(args.score) ? { score: args.score } : {});
    }
    return { score: args.score, comment: args.comment ?? null, answers: null as AnswerRecord[] | null };
  }
  if (given(args.score) || given(args.comment) || !given(args.answers)) {
    fail('MEETING-013', 'this service rates with its form: send answers, not score or comment', { ratingFormId: formId });
  }
  const form = school.tables.forms.get(formId);
  const answers = form ? validateAnswers(form, args.answers) : [];
  return { score: null, comment: null, answers };
}

/**
 * `rateConsultingMeeting`: upserts the student's whole rating (a repeat replaces it) and puts a
 * notification email to the student in the outbox.
 */
export function rateConsultingMeeting(args: RateArgs, ctx: ResolverContext) {
  const { school, now, ids } = ctx;
  if (!given(args.userId) && !given(args.email)) fail('ENROLLMENT-001', 'one of userId or email is required');
  if (given(args.userId) && given(args.email)) fail('MEETING-016', 'send exactly one of userId or email, not both');
  const meeting = findOpenMeeting(school, args.meetingId);
  const student = findStudent(school, args);
  if (!meeting.attendeeIds.includes(student.id)) {
    fail('MEETING-006', 'student is not enrolled in the meeting', { meetingId: meeting.id, userId: student.id });
  }
  const raterId = grader(school, args.raterId, meeting.hostUserId);
  const formId = school.tables.services.get(meeting.serviceId)?.ratingFormId ?? null;
  const content = ratingContent(school, formId, args);
  const previous = school.rating(meeting.id, student.id);
  const rating: RatingRecord = {
    id: previous?.id ?? ids.uuid(),
    meetingId: meeting.id,
    userId: student.id,
    raterId,
    ...content,
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
  };
  school.tables.ratings.set(ratingKey(meeting.id, student.id), rating);
  school.tables.outbox.push({
    id: ids.uuid(),
    kind: 'rating_notification',
    to: student.email,
    userId: student.id,
    subject: `You have been rated for "${meeting.title}"`,
    meetingId: meeting.id,
    sentAt: now,
  });
  return { attendeeRating: ratingView(school, rating), errors: null };
}
