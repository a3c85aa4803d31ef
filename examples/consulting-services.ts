/**
 * Consulting services: create, publish and tag, and soft-delete (refused with CONSULTING-004 while
 * future meetings that are not canceled remain).
 *
 * Run: npx tsx examples/consulting-services.ts   (the simulator; a real server with ADMIN_API_URL + ADMIN_API_KEY)
 */
import { hasCode } from '../src/index.js';
import { step } from './support/report.js';
import { connect } from './support/target.js';

const target = await connect();
const { admin, school } = target;
try {
  const service = await step('Create an unpublished service', async () => {
    const created = await admin.createConsultingService({ name: 'Career coaching', courseId: school.courseId, description: '30-minute 1:1 sessions' });
    return { value: created, line: `slug ${created.slug}, published=${created.published}` };
  });

  await step('Publish it and set its tags (the list is replaced)', async () => {
    const updated = await admin.updateConsultingService(service.id, { published: true, tags: ['career', '1:1'] });
    return { value: updated, line: `published=${updated.published} at ${updated.publishedAt}, tags ${updated.tags?.join(', ')}` };
  });

  const meetingId = await step('Add one future slot', async () => {
    const start = Math.floor(Date.now() / 1000) + 3 * 86_400;
    const result = await admin.bulkCreateMeetings(service.id, [{ startedAt: start, endedAt: start + 1800 }]);
    return { value: result.results[0]?.meeting?.id as string, line: `slot ${result.results[0]?.meeting?.state}` };
  });

  await step('Deleting is refused while that slot is open', async () => {
    const error = await admin.deleteConsultingService(service.id).catch((caught: unknown) => caught);
    return { value: error, line: hasCode(error, 'CONSULTING-004') ? 'CONSULTING-004: cancel its future meetings first' : String(error) };
  });

  await step('Cancel the slot, then delete (soft: discardedAt is set)', async () => {
    await admin.cancelMeeting(meetingId);
    const deleted = await admin.deleteConsultingService(service.id);
    return { value: deleted, line: `discardedAt ${deleted.discardedAt}` };
  });
} finally {
  await target.close();
}
