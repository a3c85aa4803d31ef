import type { AdminConsultingMeetingBulkInput } from '../../generated/graphql.js';
import { fail } from '../graphql/coded-error.js';
import type { ResolverContext } from '../graphql/resolver-context.js';
import type { MeetingRecord, ServiceRecord } from '../model/records.js';
import { VideoPlatformError } from '../model/video-platform.js';
import { runMeetingBatch, type RowOutcome } from './atomic-batch.js';
import { MEETING_MESSAGES, checkHosting, hostUserFailure } from './meeting-hosting.js';

/** Validates one row; returns the meeting to create or the row's error strings. */
function buildMeeting(ctx: ResolverContext, service: ServiceRecord, row: AdminConsultingMeetingBulkInput): RowOutcome {
  const { school, now, ids } = ctx;
  const errors: string[] = [];
  if (row.endedAt <= row.startedAt) errors.push(MEETING_MESSAGES.endBeforeStart);
  if (row.lecturerId && !school.tables.lecturers.has(row.lecturerId)) errors.push(MEETING_MESSAGES.lecturerUnknown);
  const hostUserId = row.hostUserId ?? school.tables.profile.ownerId;
  const hostFailure = hostUserFailure(school, hostUserId, 'suffix');
  if (hostFailure) errors.push(hostFailure.toRowText());
  const hostingType = row.hostingType ?? null;
  const hosting = checkHosting(school, { hostingType, joinUrl: row.joinUrl ?? null, hostEmail: row.hostEmail ?? null }, 'suffix');
  errors.push(...hosting.failures.map((failure) => failure.toRowText()));
  if ((row.maxAttendeeCapacity ?? 0) < 0) errors.push(MEETING_MESSAGES.capacityNegative);
  if ((row.price ?? 0) < 0) errors.push(MEETING_MESSAGES.priceNegative);
  if (errors.length > 0) return { meeting: null, errors };
  const meeting: MeetingRecord = {
    id: ids.uuid(),
    serviceId: service.id,
    title: row.title ?? service.name,
    description: row.description ?? null,
    state: 'available',
    startedAt: row.startedAt,
    endedAt: row.endedAt,
    lecturerId: row.lecturerId ?? service.lecturerId,
    hostUserId,
    hostEmail: hosting.hostEmail,
    hostingType,
    hostingId: row.hostingId ?? null,
    joinUrl: row.joinUrl ?? null,
    maxAttendeeCapacity: row.maxAttendeeCapacity ?? null,
    price: row.price ?? null,
    currency: school.tables.profile.currency,
    attendeeIds: [],
    discardedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  return { meeting, errors: null };
}

/** Saves a valid row; a `videoconf` row is provisioned first and not saved when that fails. */
function saveMeeting(ctx: ResolverContext, meeting: MeetingRecord): RowOutcome {
  if (meeting.hostingType === 'videoconf') {
    try {
      ctx.videoPlatform.provisionFor(ctx.school.id, meeting);
    } catch (error) {
      if (!(error instanceof VideoPlatformError)) throw error;
      return { meeting: null, errors: [MEETING_MESSAGES.platformFailure(error.message)] };
    }
  }
  ctx.school.tables.meetings.set(meeting.id, meeting);
  return { meeting, errors: null };
}

function processRow(ctx: ResolverContext, service: ServiceRecord, row: AdminConsultingMeetingBulkInput): RowOutcome {
  const built = buildMeeting(ctx, service, row);
  return built.meeting ? saveMeeting(ctx, built.meeting) : built;
}

/**
 * `bulkCreateConsultingMeetings`: `results[i]` belongs to `inputs[i]`; `atomic: true` rolls every
 * row back when one fails (see {@link runMeetingBatch}) and refuses `videoconf` rows (MEETING-010).
 */
export function bulkCreateConsultingMeetings(
  args: { serviceId: string; inputs: AdminConsultingMeetingBulkInput[]; atomic?: boolean | null },
  ctx: ResolverContext,
) {
  const { school } = ctx;
  const service = school.liveService(args.serviceId);
  if (!service) fail('CONSULTING-001', 'consulting service not found', { serviceId: args.serviceId });
  const atomic = args.atomic === true;
  const videoconfRows = args.inputs.flatMap((row, index) => (row.hostingType === 'videoconf' ? [index] : []));
  if (atomic && videoconfRows.length > 0) {
    fail('MEETING-010', 'atomic: true cannot be combined with videoconf rows (external provisioning cannot join one transaction)', {
      rows: videoconfRows,
    });
  }
  return runMeetingBatch(ctx, args.inputs, atomic, (row) => processRow(ctx, service, row));
}
