/**
 * Cancel a batch of meetings: `results[i]` belongs to `ids[i]`, failures stay per row with their
 * parsed code (MEETING-001 not found, MEETING-007 already canceled).
 *
 * Run: npx tsx examples/cancel-meetings.ts   (the simulator; a real server with ADMIN_API_URL + ADMIN_API_KEY)
 */
import { step } from './support/report.js';
import { connect } from './support/target.js';

const target = await connect();
const { admin, school } = target;
try {
  const ids = await step('Create a service with three slots next week', async () => {
    const service = await admin.createConsultingService({ name: 'Lab hours', courseId: school.courseId });
    const start = Math.floor(Date.now() / 1000) + 7 * 86_400;
    const rows = [0, 1, 2].map((n) => ({ startedAt: start + n * 3600, endedAt: start + n * 3600 + 1800 }));
    const created = await admin.bulkCreateMeetings(service.id, rows);
    const meetingIds = created.results.flatMap((row) => (row.meeting === null ? [] : [row.meeting.id]));
    return { value: meetingIds, line: `${meetingIds.length} slots` };
  });

  await step('Cancel one of them alone', async () => {
    const canceled = await admin.cancelMeeting(ids[0] as string);
    return { value: canceled, line: `state ${canceled.state}` };
  });

  await step('Cancel the batch (one already canceled, one unknown id)', async () => {
    const batch = [...ids, '00000000-0000-4000-8000-00000000beef'];
    const result = await admin.bulkCancelMeetings(batch);
    const rows = result.results.map((row, index) => `${batch[index]?.slice(0, 8)}: ${row.meeting?.state ?? row.errors?.[0]?.code ?? 'failed'}`);
    return { value: result, line: `allSucceeded=${result.allSucceeded}; ${rows.join(', ')}` };
  });
} finally {
  await target.close();
}
