import { CodedFailure } from '../graphql/coded-error.js';
import { VALID_OPTIONS_LIMIT, withValidOptions } from '../graphql/valid-options.js';
import type { HostingType } from '../model/records.js';
import type { SchoolModel } from '../model/school.js';

/** Payload and row messages of meeting model validation (texts of the simulator; the spec gives none). */
export const MEETING_MESSAGES = {
  /** `endedAt` is not after `startedAt`. */
  endBeforeStart: 'endedAt must be after startedAt',
  /** `lecturerId` is not a lecturer of the school. */
  lecturerUnknown: 'lecturerId is not a lecturer of this school',
  /** A negative `maxAttendeeCapacity`. */
  capacityNegative: 'maxAttendeeCapacity must be 0 (unlimited) or greater',
  /** A negative `price`. */
  priceNegative: 'price must be 0 or greater',
  /** A valid row of an atomic batch in which another row failed. */
  rolledBack: 'Rolled back: another row of this atomic batch failed',
  /** Bulk cancel of a meeting already canceled (the row's message). */
  alreadyCanceled: 'MEETING-007: meeting is already canceled',
  /** Provisioning a `videoconf` meeting failed on the platform. */
  platformFailure: (reason: string) => `Video platform API error: could not create the external meeting (${reason})`,
} as const;

/** How coded hosting failures carry the pool of valid values. */
export type ValidOptionsStyle = 'suffix' | 'details';

function poolFailure(
  code: 'MEETING-011' | 'MEETING-012',
  message: string,
  pool: readonly string[],
  style: ValidOptionsStyle,
  details: Record<string, unknown>,
): CodedFailure {
  const hint = { validOptions: pool.slice(0, VALID_OPTIONS_LIMIT), validOptionsTruncated: pool.length > VALID_OPTIONS_LIMIT };
  return new CodedFailure(code, style === 'suffix' ? withValidOptions(message, pool) : message, { ...details, ...hint });
}

/** MEETING-012 when `hostUserId` is neither the owner nor a teaching assistant, else null. */
export function hostUserFailure(school: SchoolModel, hostUserId: string, style: ValidOptionsStyle): CodedFailure | null {
  if (school.isHost(hostUserId)) return null;
  const pool = school.hosts().map((user) => user.id);
  return poolFailure('MEETING-012', 'hostUserId must be the school owner or a teaching assistant', pool, style, { hostUserId });
}

/** The hosting fields a meeting ends up with. */
export interface HostingDraft {
  hostingType: HostingType | null;
  joinUrl: string | null;
  hostEmail: string | null;
}

/** The outcome of checking a draft: the coded failures, and the licence email to use for `videoconf`. */
export interface HostingCheck {
  failures: CodedFailure[];
  hostEmail: string | null;
}

/**
 * MEETING-008 (`custom` without `joinUrl`), MEETING-009 (`videoconf` without an active integration)
 * and MEETING-011 (licence email missing or unknown; when omitted and the school has exactly one
 * licence, that one is used).
 */
export function checkHosting(school: SchoolModel, draft: HostingDraft, style: ValidOptionsStyle): HostingCheck {
  const failures: CodedFailure[] = [];
  if (draft.hostingType === 'custom' && !draft.joinUrl) {
    failures.push(new CodedFailure('MEETING-008', 'custom hosting requires joinUrl'));
  }
  if (draft.hostingType !== 'videoconf') return { failures, hostEmail: draft.hostEmail };
  const { integration } = school.tables;
  if (!integration.active) {
    failures.push(new CodedFailure('MEETING-009', 'videoconf hosting requires an active video-platform integration'));
    return { failures, hostEmail: draft.hostEmail };
  }
  const licences = integration.licenceEmails;
  if (draft.hostEmail) {
    const wanted = draft.hostEmail.toLowerCase();
    const match = licences.find((licence) => licence.toLowerCase() === wanted);
    if (match) return { failures, hostEmail: match };
    failures.push(poolFailure('MEETING-011', "hostEmail is not among the school's video-platform licences", licences, style, {}));
    return { failures, hostEmail: draft.hostEmail };
  }
  if (licences.length === 1) return { failures, hostEmail: licences[0] ?? null };
  failures.push(
    poolFailure('MEETING-011', `hostEmail is required: the school has ${licences.length} video-platform licences`, licences, style, {}),
  );
  return { failures, hostEmail: null };
}
