/**
 * `npm run demo`: an integrator's day with the SDK, end to end. Runs against the built-in
 * simulator (no key needed), or against a real server when ADMIN_API_URL and ADMIN_API_KEY are set:
 * then it lists what it will change and asks first (or needs `--yes`: `npm run demo -- --yes`).
 */
import { CodedError, PayloadError, type ConsultingMeeting } from '../src/index.js';
import { unixToLocal, weeklySlots } from '../src/scheduling/index.js';
import { askBeforeSideEffects } from './support/confirm.js';
import { connect } from './support/target.js';
import { nextWeek, step, summary } from './support/report.js';

/** The simulator's rate-limit window: 15 s (a self-hosted setting) instead of the documented 60 s, so the grant step does not wait a minute. */
const SIMULATOR_WINDOW_MS = 15_000;
const GRANTS = 300;

const target = await connect({ simulatorWindowMs: SIMULATOR_WINDOW_MS });
const { admin, school } = target;
const members = school.memberEmails.slice(0, GRANTS);
if (target.mode === 'simulator') {
  console.log(`school-admin-sdk demo against the built-in simulator at ${target.baseUrl}`);
  console.log(
    `The simulator allows 200 mutations per ${SIMULATOR_WINDOW_MS / 1000} s window (a self-hosted setting; the documented limit is 200 per 60 s), ` +
      `so the ${members.length} grants below take about one window: ${SIMULATOR_WINDOW_MS / 1000} s here, a minute against a real school.\n`,
  );
} else {
  const consent = await askBeforeSideEffects(
    target.baseUrl,
    [
      `create and publish a consulting service "Exam prep office hours" in course ${school.courseId} (students see it)`,
      'open three slots next week (Mon, Wed, Fri 10:00-11:00 in the service\'s time zone)',
      `enroll the first three members of ADMIN_DEMO_MEMBER_EMAILS (${school.memberEmails.slice(0, 3).join(', ')}) and move one to another slot`,
      'rate one of them 9/10 with a comment: the school emails that student',
      'try one slot with an invalid host (refused by the server, nothing created)',
      `create a restricted coupon "Finals week 15%" and grant it to ${members.length} real members of ADMIN_DEMO_MEMBER_EMAILS (paced under 200 per 60 s: about a minute per 200), then revoke one grant`,
      `extend subscription ${school.subscriptionId} by 30 days (the member's billing period changes)`,
    ],
    { yes: process.argv.includes('--yes') },
  );
  if (consent !== 'go') {
    console.error(
      consent === 'refused'
        ? 'Failed to start the demo: it would change a real school and there is no terminal to ask. Run it with --yes (npm run demo -- --yes) to go on, or unset ADMIN_API_URL and ADMIN_API_KEY to use the built-in simulator.'
        : 'Stopped: nothing was sent.',
    );
    await target.close();
    process.exit(consent === 'refused' ? 2 : 1);
  }
  console.log(`\nschool-admin-sdk demo against ${target.baseUrl}\n`);
}

try {
  const service = await step('Create and publish a consulting service', async () => {
    const created = await admin.createConsultingService({
      name: 'Exam prep office hours',
      courseId: school.courseId,
      description: 'One-to-few sessions before the finals',
      published: true,
      tags: ['exam', 'office-hours'],
    });
    return { value: created, line: `"${created.name}" slug=${created.slug} published=${created.published} zone=${created.effectiveTimezone}` };
  });

  const timeZone = service.effectiveTimezone ?? 'UTC';
  const week = nextWeek(timeZone);
  const slots = await step('Open a week of slots from local times (Mon/Wed/Fri 10:00-11:00 local)', async () => {
    const rows = weeklySlots({ timeZone, from: week.from, to: week.to, days: ['mon', 'wed', 'fri'], start: '10:00', end: '11:00', row: { maxAttendeeCapacity: 3, hostingType: 'live_session' } });
    const result = await admin.bulkCreateMeetings(service.id, rows);
    const meetings = result.results.flatMap((row) => (row.meeting === null ? [] : [row.meeting]));
    const first = meetings[0];
    const local = first?.startedAt == null ? '' : ` first ${describeLocal(first.startedAt, timeZone)}`;
    return { value: meetings, line: `${meetings.length}/${rows.length} slots created, allSucceeded=${result.allSucceeded};${local}` };
  });
  const [monday, wednesday] = slots as [ConsultingMeeting, ConsultingMeeting];

  const students = school.memberEmails.slice(0, 3);
  const enrolled = await step('Enroll three students', async () => {
    const results = await Promise.all(students.map((email, index) => admin.enrollStudent(index < 2 ? monday.id : wednesday.id, { email })));
    const last = results.at(-1);
    return { value: results.map((result) => result.user?.id ?? ''), line: `Monday slot now ${results[1]?.meeting.state} (${results[1]?.meeting.attendeeCount} attendees), Wednesday ${last?.meeting.state}` };
  });

  await step('Reschedule one student from Monday to Wednesday', async () => {
    const moved = await admin.rescheduleStudent({ userId: enrolled[0] as string, fromMeetingId: monday.id, toMeetingId: wednesday.id });
    return { value: moved, line: `Monday ${moved.fromMeeting.attendeeCount} attendee(s), Wednesday ${moved.toMeeting.attendeeCount} attendee(s)` };
  });

  await step('Rate a student after the session', async () => {
    const rating = await admin.rateMeeting(wednesday.id, { userId: enrolled[2] as string }, { score: 9, comment: 'Came well prepared' });
    return { value: rating, line: `${rating.name ?? rating.email} rated ${rating.rate?.score}/10 (the student is emailed)` };
  });

  await step('Try an invalid host and read the parsed valid_options hint', async () => {
    const result = await admin.bulkCreateMeetings(service.id, [
      { startedAt: monday.startedAt ?? 0, endedAt: monday.endedAt ?? 0, hostUserId: 'not-a-teaching-assistant', title: 'Bad host' },
    ]);
    const error = result.results[0]?.errors?.[0];
    const hint = error?.validOptions === undefined ? 'no hint' : `valid hosts: ${error.validOptions.join(', ')}${error.validOptionsTruncated ? ' (truncated)' : ''}`;
    return { value: error, line: `row failed with ${error?.code ?? 'no code'}; ${hint}` };
  });

  const coupon = await step('Create a restricted (grant-only) coupon', async () => {
    const created = await admin.createCoupon({ name: 'Finals week 15%', couponType: 'percentage', amount: 15, restricted: true, oncePerUser: true });
    return { value: created, line: `code ${created.code}, restricted=${created.restricted}` };
  });

  const window = target.mode === 'simulator' ? `${SIMULATOR_WINDOW_MS / 1000} s` : '60 s';
  const grants = await step(`Grant it to ${members.length} members, paced under the mutation budget (200 per ${window} window)`, async () => {
    let rateLimited = 0;
    const stop = admin.on('rateLimited', () => (rateLimited += 1));
    const started = performance.now();
    let done = 0;
    const results = await Promise.all(
      members.map(async (email) => {
        const result = await admin.grantCoupon(coupon.id, { email });
        done += 1;
        if (done % 100 === 0) process.stdout.write(`    ${done}/${members.length} granted\n`);
        return result;
      }),
    );
    stop();
    const created = results.filter((result) => result.created).length;
    return { value: results, line: `${created} created, ${results.length - created} already held, ${rateLimited} rate-limit pauses, ${((performance.now() - started) / 1000).toFixed(1)} s` };
  });

  await step('Revoke one grant', async () => {
    const revoked = await admin.revokeCouponGrant(grants[0]?.grant.id as string);
    return { value: revoked, line: `grant for ${revoked.userEmail} is now ${revoked.status}` };
  });

  await step('Extend a subscription by 30 days', async () => {
    const newEnd = new Date(Date.now() + 30 * 24 * 3600 * 1000);
    const subscription = await admin.updateSubscriptionPeriod(school.subscriptionId, newEnd);
    return { value: subscription, line: `currentPeriodEnd is now ${new Date((subscription.currentPeriodEnd ?? 0) * 1000).toISOString()} (a number, whatever the wire format)` };
  });

  if (target.simulator !== undefined) {
    const { DEMO_IDS } = await import('../src/testing/index.js');
    await step('Errors you can branch on: extend a subscription pending cancellation', async () => {
      const error = await admin.updateSubscriptionPeriod(DEMO_IDS.subscriptionIds.canceling, new Date(Date.now() + 86_400_000)).catch((caught: unknown) => caught);
      const line = error instanceof PayloadError ? `PayloadError reason=${error.reason}` : error instanceof CodedError ? `CodedError ${error.code}` : String(error);
      return { value: error, line };
    });
    const stats = target.simulator.stats();
    summary(stats.requests, stats.rateLimited, target.simulator.outbox().length);
  } else {
    summary();
  }
} finally {
  await target.close();
}

function describeLocal(unixSeconds: number, zone: string): string {
  const local = unixToLocal(unixSeconds, zone);
  return `${local.date} ${local.time} ${zone}`;
}
