import { CodedFailure, fail } from '../graphql/coded-error.js';
import type { ResolverContext } from '../graphql/resolver-context.js';
import { meetingView } from '../graphql/views.js';
import type { MeetingRecord } from '../model/records.js';
import { runMeetingBatch, type RowOutcome } from './atomic-batch.js';
import { MEETING_MESSAGES } from './meeting-hosting.js';
import { findOpenMeeting } from './meeting-lookup.js';

/** True for a meeting whose external counterpart lives on the video platform. */
function platformHosted(meeting: MeetingRecord): boolean {
  return meeting.hostingType === 'videoconf' && meeting.hostingId !== null;
}

/**
 * Cancels an open meeting. A platform-hosted meeting loses its platform-side meeting; the local
 * record keeps its hosting metadata (`hostingId`, `joinUrl`, `hostEmail`).
 */
function cancel(ctx: ResolverContext, meeting: MeetingRecord): void {
  meeting.state = 'canceled';
  meeting.updatedAt = ctx.now;
  if (platformHosted(meeting) && meeting.hostingId) ctx.videoPlatform.delete(meeting.hostingId, ctx.now);
}

/** `cancelConsultingMeeting`: from `available` or `scheduled` to `canceled`. */
export function cancelConsultingMeeting(args: { id: string }, ctx: ResolverContext) {
  const meeting = findOpenMeeting(ctx.school, args.id);
  cancel(ctx, meeting);
  return { meeting: meetingView(ctx.school, meeting), errors: null };
}

function cancelRow(ctx: ResolverContext, id: string): RowOutcome {
  try {
    const meeting = findOpenMeeting(ctx.school, id);
    cancel(ctx, meeting);
    return { meeting, errors: null };
  } catch (error) {
    if (!(error instanceof CodedFailure)) throw error;
    return { meeting: null, errors: [error.code === 'MEETING-007' ? MEETING_MESSAGES.alreadyCanceled : error.toRowText()] };
  }
}

/**
 * `bulkCancelConsultingMeetings`: `results[i]` belongs to `ids[i]`; rows fail with MEETING-001
 * or MEETING-007. `atomic: true` rolls every row back when one fails and refuses batches with a
 * platform-hosted meeting (MEETING-010).
 */
export function bulkCancelConsultingMeetings(args: { ids: string[]; atomic?: boolean | null }, ctx: ResolverContext) {
  const { school } = ctx;
  const atomic = args.atomic === true;
  if (atomic) {
    const hosted = args.ids.filter((id) => {
      const meeting = school.liveMeeting(id);
      return meeting !== undefined && platformHosted(meeting);
    });
    if (hosted.length > 0) {
      fail('MEETING-010', 'atomic: true cannot be combined with video-platform-hosted meetings', { meetingIds: hosted });
    }
  }
  return runMeetingBatch(ctx, args.ids, atomic, (id) => cancelRow(ctx, id));
}
