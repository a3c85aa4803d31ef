import type { AdminConsultingMeetingUpdateInput } from '../../generated/graphql.js';
import { fail } from '../graphql/coded-error.js';
import type { ResolverContext } from '../graphql/resolver-context.js';
import { meetingView } from '../graphql/views.js';
import type { MeetingRecord } from '../model/records.js';
import { VideoPlatformError } from '../model/video-platform.js';
import { MEETING_MESSAGES, checkHosting, hostUserFailure } from './meeting-hosting.js';
import { findOpenMeeting } from './meeting-lookup.js';

type Input = AdminConsultingMeetingUpdateInput;

/** The input with explicit nulls dropped: in this operation null means "no change". */
function providedFields(input: Input): { [K in keyof Input]?: NonNullable<Input[K]> } {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null && value !== undefined));
}

function rejected(errors: string[]) {
  return { meeting: null, errors };
}

/** Keeps the video platform in step with a meeting whose hosting changed. */
function syncPlatform(ctx: ResolverContext, meeting: MeetingRecord, before: MeetingRecord): string | null {
  const { videoPlatform, now } = ctx;
  const wasVideo = before.hostingType === 'videoconf' && before.hostingId !== null;
  if (meeting.hostingType !== 'videoconf') {
    if (wasVideo && before.hostingId) videoPlatform.delete(before.hostingId, now);
    return null;
  }
  if (wasVideo && before.hostingId) {
    if (meeting.hostEmail && meeting.hostEmail !== before.hostEmail) videoPlatform.reassignHost(before.hostingId, meeting.hostEmail);
    return null;
  }
  try {
    videoPlatform.provisionFor(ctx.school.id, meeting);
    return null;
  } catch (error) {
    if (!(error instanceof VideoPlatformError)) throw error;
    return MEETING_MESSAGES.platformFailure(error.message);
  }
}

/**
 * `updateConsultingMeeting`: only provided fields change and explicit null means no change.
 * The time cannot change while students are enrolled (MEETING-003); hosting rules are checked on
 * the resulting meeting.
 */
export function updateConsultingMeeting(args: { id: string; input: Input }, ctx: ResolverContext) {
  const { school, now } = ctx;
  const meeting = findOpenMeeting(school, args.id);
  const changes = providedFields(args.input);
  const timeChanges =
    (changes.startedAt !== undefined && changes.startedAt !== meeting.startedAt) ||
    (changes.endedAt !== undefined && changes.endedAt !== meeting.endedAt);
  if (timeChanges && meeting.attendeeIds.length > 0) {
    fail('MEETING-003', 'the time of a meeting with enrolled students cannot change', {
      meetingId: meeting.id,
      attendeeCount: meeting.attendeeIds.length,
    });
  }
  const next: MeetingRecord = { ...meeting, ...changes, attendeeIds: meeting.attendeeIds };
  const hostFailure = hostUserFailure(school, next.hostUserId, 'details');
  if (changes.hostUserId !== undefined && hostFailure) throw hostFailure;
  const hosting = checkHosting(school, next, 'details');
  const [firstHostingFailure] = hosting.failures;
  if (firstHostingFailure) throw firstHostingFailure;
  next.hostEmail = hosting.hostEmail;
  const errors: string[] = [];
  if (next.endedAt <= next.startedAt) errors.push(MEETING_MESSAGES.endBeforeStart);
  if (changes.lecturerId !== undefined && !school.tables.lecturers.has(changes.lecturerId)) errors.push(MEETING_MESSAGES.lecturerUnknown);
  if ((next.maxAttendeeCapacity ?? 0) < 0) errors.push(MEETING_MESSAGES.capacityNegative);
  if ((next.price ?? 0) < 0) errors.push(MEETING_MESSAGES.priceNegative);
  if (errors.length > 0) return rejected(errors);
  const platformError = syncPlatform(ctx, next, meeting);
  if (platformError) return rejected([platformError]);
  Object.assign(meeting, next, { updatedAt: now });
  return { meeting: meetingView(school, meeting), errors: null };
}
