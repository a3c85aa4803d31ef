/**
 * Meetings: enroll a student by email, change a slot, move the student to another slot, rate the
 * session, and remove a student (an emptied slot becomes available again).
 *
 * Run: npx tsx examples/meetings.ts   (the simulator; a real server with ADMIN_API_URL + ADMIN_API_KEY)
 */
import type { ConsultingMeeting } from '../src/index.js';
import { step } from './support/report.js';
import { connect } from './support/target.js';

const target = await connect();
const { admin, school } = target;
try {
  const [morning, afternoon] = await step('Create a service with two slots tomorrow', async () => {
    const service = await admin.createConsultingService({ name: 'Statistics clinic', courseId: school.courseId });
    const start = Math.floor(Date.now() / 1000) + 86_400;
    const result = await admin.bulkCreateMeetings(service.id, [
      { startedAt: start, endedAt: start + 3600, maxAttendeeCapacity: 2 },
      { startedAt: start + 4 * 3600, endedAt: start + 5 * 3600, maxAttendeeCapacity: 2 },
    ]);
    const meetings = result.results.map((row) => row.meeting as ConsultingMeeting);
    return { value: meetings, line: meetings.map((meeting) => meeting.state).join(', ') };
  });
  if (morning === undefined || afternoon === undefined) throw new Error('Failed to create the slots.');

  const userId = await step('Enroll a student by email', async () => {
    const { meeting, user } = await admin.enrollStudent(morning.id, { email: school.memberEmails[1] as string });
    return { value: user?.id as string, line: `morning slot ${meeting.state}, ${meeting.attendeeCount} attendee` };
  });

  await step('Raise the capacity (times cannot change once students are enrolled)', async () => {
    const updated = await admin.updateMeeting(morning.id, { maxAttendeeCapacity: 4, title: 'Statistics clinic (extended)' });
    return { value: updated, line: `capacity ${updated.maxAttendeeCapacity}, title "${updated.title}"` };
  });

  await step('Move the student to the afternoon slot', async () => {
    const { fromMeeting, toMeeting } = await admin.rescheduleStudent({ userId, fromMeetingId: morning.id, toMeetingId: afternoon.id });
    return { value: toMeeting, line: `morning ${fromMeeting.state}, afternoon ${toMeeting.state}` };
  });

  await step('Rate the student after the session (score 0.5-10 in 0.5 steps)', async () => {
    const rating = await admin.rateMeeting(afternoon.id, { userId }, { score: 8.5, comment: 'Good questions' });
    return { value: rating, line: `${rating.email} rated ${rating.rate?.score}` };
  });

  await step('Remove the student: the slot is available again', async () => {
    const meeting = await admin.removeStudent(afternoon.id, userId);
    return { value: meeting, line: `afternoon ${meeting.state}, ${meeting.attendeeCount} attendees` };
  });
} finally {
  await target.close();
}
