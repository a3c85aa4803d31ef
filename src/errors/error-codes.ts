import { isDocumentedCode, type ErrorCode } from './error-code-list.js';

export type { ErrorCode } from './error-code-list.js';

/** What a documented error code means and what to do about it. */
export interface ErrorCodeInfo {
  /** The spec's meaning, phrased to follow "Failed to <operation>: ". */
  meaning: string;
  /** What the caller can do. */
  remedy: string;
}

/**
 * Every error code the spec documents, with its meaning and a remedy. Messages of `CodedError`
 * are built from this table; callers branch on `error.code`, never on the text.
 */
export const ERROR_CODES: { readonly [C in ErrorCode]: ErrorCodeInfo } = {
  'CONSULTING-001': { meaning: 'the consulting service was not found in this school', remedy: 'Check the service id; ids of another school are treated as not found.' },
  'CONSULTING-002': { meaning: 'the parent course was not found in this school', remedy: 'Pass the id of a course of the school the API key belongs to.' },
  'CONSULTING-003': { meaning: 'the slug is invalid', remedy: 'Use only lower-case letters, digits and hyphens (^[a-z0-9-]+$), or omit it to derive it from the name.' },
  'CONSULTING-004': { meaning: 'the service still has undiscarded, non-canceled future meetings', remedy: 'Cancel its future meetings first (bulkCancelMeetings), then delete the service.' },
  'CONSULTING-005': { meaning: 'lecturerId is not a lecturer of this school', remedy: 'Pass the id of one of the school\'s lecturers.' },
  'CONSULTING-006': { meaning: 'ratingFormId is not a form of this school', remedy: 'Pass the id of one of the school\'s forms.' },
  'MEETING-001': { meaning: 'the meeting was not found in this school', remedy: 'Check the meeting id (for a reschedule: both the source and the target).' },
  'MEETING-003': { meaning: 'the time of a meeting with enrolled students cannot change', remedy: 'Move the students first (rescheduleStudent) or create a new slot; other fields stay editable.' },
  'MEETING-004': { meaning: 'the meeting is at its maximum attendee capacity', remedy: 'Pick another slot or raise maxAttendeeCapacity (0 or null means unlimited).' },
  'MEETING-006': { meaning: 'the student is not enrolled in the meeting', remedy: 'Enroll the student first, or check the user id and meeting id.' },
  'MEETING-007': { meaning: 'the meeting is canceled', remedy: 'Canceled meetings cannot change; use another meeting.' },
  'MEETING-008': { meaning: 'custom hosting needs a joinUrl', remedy: 'Send a joinUrl with hostingType custom.' },
  'MEETING-009': { meaning: 'videoconf hosting needs an active video-platform integration', remedy: 'Activate the school\'s video-platform integration or choose another hosting type.' },
  'MEETING-010': { meaning: 'atomic batches cannot contain video-platform-hosted meetings', remedy: 'Send videoconf rows with atomic: false.' },
  'MEETING-011': { meaning: 'the video-platform host email is missing or not among the school\'s licences', remedy: 'Use one of error.validOptions (a hint; the full list comes from the host listing query).' },
  'MEETING-012': { meaning: 'hostUserId is neither the school owner nor a teaching assistant', remedy: 'Use one of error.validOptions (a hint; call meetingHosts for the full list).' },
  'MEETING-013': { meaning: 'the rating input does not match the service\'s rating mode', remedy: 'Send score/comment when the service has no rating form, answers when it has one.' },
  'MEETING-014': { meaning: 'the score is missing or not between 0.5 and 10 in steps of 0.5', remedy: 'Send a score such as 7 or 8.5.' },
  'MEETING-015': { meaning: 'the rating answers failed validation', remedy: 'Send one answer per field of the form, each with value or values (not both), for every required field.' },
  'MEETING-016': { meaning: 'both userId and email were given', remedy: 'Identify the student by exactly one of userId or email.' },
  'MEETING-017': { meaning: 'raterId is not a valid grader', remedy: 'Pass the id of the school owner or a teaching assistant, or omit it to use the host.' },
  'MEETING-018': { meaning: 'no raterId was given and the meeting\'s host is not a valid grader', remedy: 'Pass raterId (the school owner or a teaching assistant).' },
  'MEETING-019': { meaning: 'the source and target meetings are the same', remedy: 'Pass two different meeting ids.' },
  'MEETING-020': { meaning: 'the source meeting has already ended', remedy: 'Students cannot be moved out of an ended meeting (that would destroy its rating).' },
  'ENROLLMENT-001': { meaning: 'neither userId nor email was given', remedy: 'Identify the student by userId or by email.' },
  'ENROLLMENT-002': { meaning: 'the user was not found in this school', remedy: 'Check the member; deleted accounts and members of other schools cannot be used.' },
  'ENROLLMENT-005': { meaning: 'the student could not be created', remedy: 'Check the email and name, or create the student first.' },
  'ENROLLMENT-006': { meaning: 'the email is missing or invalid', remedy: 'Send a well-formed email address.' },
  'ENROLLMENT-007': { meaning: 'a name is required to create a student by email', remedy: 'Send name together with email for members who do not exist yet.' },
  'COUPON-001': { meaning: 'the coupon was not found (not in this school, or deleted)', remedy: 'Check the coupon id.' },
  'COUPON-002': { meaning: 'the coupon type is invalid', remedy: 'Use couponType fixed_amount or percentage.' },
  'COUPON-003': { meaning: 'the coupon is not restricted', remedy: 'Only restricted coupons can be granted; create one with restricted: true.' },
  'COUPON-004': { meaning: 'the grant was not found or is already revoked', remedy: 'Check the grant id; a revoked grant cannot be revoked again.' },
  'COUPON-005': { meaning: 'neither userId nor email was given', remedy: 'Identify the member by userId or by email.' },
  'COUPON-006': { meaning: 'both userId and email were given', remedy: 'Identify the member by exactly one of userId or email.' },
  'GENERAL-001': { meaning: 'the server hit an unexpected internal error', remedy: 'Try again later; report it if it persists.' },
};

/** Looks up a code's meaning and remedy; undefined for codes the spec does not document. */
export function describeErrorCode(code: string): ErrorCodeInfo | undefined {
  return isDocumentedCode(code) ? ERROR_CODES[code] : undefined;
}
