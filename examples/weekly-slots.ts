/**
 * Open a term of weekly consulting slots from local times: "Tue,Thu 10:00-11:00" in the service's
 * time zone stays 10:00 local across daylight-saving changes. Large sets are sent in chunks
 * (`bulkChunkSize`), with results in input order.
 *
 * Run: npx tsx examples/weekly-slots.ts   (the simulator; a real server with ADMIN_API_URL + ADMIN_API_KEY)
 */
import { parseSlotPatterns, planWeeklySlots, unixToLocal } from '../src/scheduling/index.js';
import { step } from './support/report.js';
import { connect } from './support/target.js';

// Chunks of 10 rows so that this example shows chunking with a small set.
const target = await connect({ client: { bulkChunkSize: 10 } });
const { admin, school } = target;
try {
  const service = await step('Create a consulting service', async () => {
    const created = await admin.createConsultingService({ name: 'Thesis office hours', courseId: school.courseId, published: true });
    return { value: created, line: `${created.name}, zone ${created.effectiveTimezone}` };
  });
  const timeZone = service.effectiveTimezone ?? 'UTC';

  const plan = await step('Plan Tue/Thu 10:00-11:00 local from March to mid-April (across the DST change)', async () => {
    const today = new Date();
    const year = today.getUTCFullYear() + (today.getUTCMonth() >= 2 ? 1 : 0);
    const [from, to] = [`${year}-03-01`, `${year}-04-15`];
    const planned = planWeeklySlots({ timeZone, from, to, patterns: parseSlotPatterns('Tue,Thu 10:00-11:00'), nonexistent: 'skip', row: { maxAttendeeCapacity: 4, hostingType: 'live_session' } });
    const offsets = new Set(planned.rows.map((row) => unixToLocal(Number(row.startedAt), timeZone).offset));
    return { value: planned, line: `${planned.rows.length} slots from ${from} to ${to}, all at 10:00 local; UTC offsets: ${[...offsets].join(', ')}` };
  });

  await step('Create them (sent in chunks of 10, results in input order)', async () => {
    const result = await admin.bulkCreateMeetings(service.id, plan.rows);
    const first = result.results[0]?.meeting;
    const local = first?.startedAt == null ? '' : unixToLocal(first.startedAt, timeZone);
    return { value: result, line: `allSucceeded=${result.allSucceeded}, ${result.results.length} results; first ${local === '' ? '?' : `${local.date} ${local.time} ${timeZone}`}` };
  });

  await step('atomic with more rows than one chunk is refused before sending', async () => {
    const error = await admin.bulkCreateMeetings(service.id, plan.rows, { atomic: true }).catch((caught: unknown) => caught);
    return { value: error, line: error instanceof Error ? error.message : 'no error' };
  });
} finally {
  await target.close();
}
