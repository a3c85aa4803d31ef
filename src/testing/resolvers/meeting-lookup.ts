import { fail } from '../graphql/coded-error.js';
import type { MeetingRecord } from '../model/records.js';
import type { SchoolModel } from '../model/school.js';

/** The meeting, or MEETING-001 when it is not in the school (or discarded). */
export function findMeeting(school: SchoolModel, meetingId: string, role?: 'source' | 'target'): MeetingRecord {
  const meeting = school.liveMeeting(meetingId);
  if (!meeting) fail('MEETING-001', role ? `${role} meeting not found` : 'meeting not found', { meetingId, ...(role ? { role } : {}) });
  return meeting;
}

/** The meeting unless canceled: MEETING-007 for a canceled one (lifecycle rule of every meeting operation). */
export function findOpenMeeting(school: SchoolModel, meetingId: string, role?: 'source' | 'target'): MeetingRecord {
  const meeting = findMeeting(school, meetingId, role);
  if (meeting.state === 'canceled') {
    fail('MEETING-007', role ? `${role} meeting is canceled` : 'meeting is canceled', { meetingId, ...(role ? { role } : {}) });
  }
  return meeting;
}
