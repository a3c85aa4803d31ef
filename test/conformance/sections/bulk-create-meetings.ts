import { describe, expect, it } from 'vitest';
import { BulkCreateConsultingMeetingsDocument } from '../../../src/generated/graphql.js';
import { MEETING_MESSAGES, VALID_OPTIONS_TRUNCATION_TEXT } from '../../../src/testing/index.js';
import { DAY, HOUR, NOW } from '../support/fixture.js';
import type { ConformanceTarget } from '../support/targets.js';
import { serverCode, useWorld } from '../support/world.js';

const slot = (n = 0) => ({ startedAt: NOW + DAY + n * HOUR, endedAt: NOW + DAY + (n + 1) * HOUR });

/** bulkCreateConsultingMeetings: rules 1 to 8, the row defaults and the "(new) -> available" transition. */
export function bulkCreateMeetingsSection(target: ConformanceTarget): void {
  describe('bulkCreateConsultingMeetings', () => {
    const world = useWorld(target);

    it('(new) -> available for a valid row; results[i] belongs to input row i', async () => {
      const w = world();
      const result = await w.client.bulkCreateMeetings(w.s.defaultService.id, [slot(0), slot(1), slot(2)]);
      expect(result.allSucceeded).toBe(true);
      expect(result.results.map((row) => [row.meeting?.state, row.meeting?.startedAt, row.errors])).toEqual([
        ['available', slot(0).startedAt, []],
        ['available', slot(1).startedAt, []],
        ['available', slot(2).startedAt, []],
      ]);
    });

    it('defaults: title falls back to the service name, lecturer inherited from the service, host = the school owner', async () => {
      const w = world();
      const { results } = await w.client.bulkCreateMeetings(w.s.defaultService.id, [slot()]);
      expect(results[0]?.meeting).toMatchObject({ title: 'Office hours', lecturerId: w.s.lecturer.id, hostUserId: w.s.owner.id, currency: 'EUR', attendeeCount: 0 });
    });

    it('explicit row values are kept (title, lecturer, host TA, capacity, price)', async () => {
      const w = world();
      const { results } = await w.client.bulkCreateMeetings(w.s.defaultService.id, [
        { ...slot(), title: 'Mock interview', lecturerId: w.s.lecturer2.id, hostUserId: w.s.ta1.id, maxAttendeeCapacity: 3, price: 49.5, hostingType: 'live_session' },
      ]);
      expect(results[0]?.meeting).toMatchObject({ title: 'Mock interview', lecturerId: w.s.lecturer2.id, hostUserId: w.s.ta1.id, maxAttendeeCapacity: 3, price: 49.5, hostingType: 'live_session' });
    });

    it('rule 1: atomic: false (default) processes each row independently', async () => {
      const w = world();
      const result = await w.client.bulkCreateMeetings(w.s.defaultService.id, [slot(0), { ...slot(1), hostUserId: w.s.alice.id }, slot(2)]);
      expect(result.allSucceeded).toBe(false);
      expect(result.results.map((row) => row.meeting !== null)).toEqual([true, false, true]);
      expect(w.sim.school().tables.meetings.size).toBe(2);
    });

    it('rule 1: atomic: true rolls every row back when any row fails', async () => {
      const w = world();
      const result = await w.client.bulkCreateMeetings(w.s.defaultService.id, [slot(0), { ...slot(1), hostUserId: w.s.alice.id }], { atomic: true });
      expect(result.allSucceeded).toBe(false);
      expect(result.results[0]).toMatchObject({ meeting: null, errors: [{ message: MEETING_MESSAGES.rolledBack }] });
      expect(result.results[1]?.errors?.[0]?.code).toBe('MEETING-012');
      expect(result.errors).toEqual(['Atomic batch rolled back: 1 of 2 rows failed']);
      expect(w.sim.school().tables.meetings.size).toBe(0);
    });

    it('rule 1: atomic: true with every row valid creates them all', async () => {
      const w = world();
      const result = await w.client.bulkCreateMeetings(w.s.defaultService.id, [slot(0), slot(1)], { atomic: true });
      expect(result.allSucceeded).toBe(true);
      expect(w.sim.school().tables.meetings.size).toBe(2);
    });

    it('rule 2: MEETING-010 for atomic: true with a videoconf row (checked by the server too), nothing created', async () => {
      const w = world();
      await serverCode(w.send(BulkCreateConsultingMeetingsDocument, { serviceId: w.s.defaultService.id, atomic: true, inputs: [slot(0), { ...slot(1), hostingType: 'videoconf' }] }), 'MEETING-010');
      expect(w.sim.school().tables.meetings.size).toBe(0);
    });

    it('rule 3: MEETING-012 when hostUserId is not the owner or a TA, with valid_options=<owner>,<TAs>', async () => {
      const w = world();
      const { results } = await w.client.bulkCreateMeetings(w.s.defaultService.id, [{ ...slot(), hostUserId: w.s.alice.id }]);
      const error = results[0]?.errors?.[0];
      expect(error?.code).toBe('MEETING-012');
      expect(error?.message).toBe(`MEETING-012: hostUserId must be the school owner or a teaching assistant valid_options=${w.s.owner.id},${w.s.ta1.id},${w.s.ta2.id}`);
      expect(error?.validOptions).toEqual([w.s.owner.id, w.s.ta1.id, w.s.ta2.id]);
      expect(error?.validOptionsTruncated).toBe(false);
    });

    it('rule 3: a deleted TA is no longer a valid host', async () => {
      const w = world();
      w.sim.deleteUser(w.s.ta2.id);
      const { results } = await w.client.bulkCreateMeetings(w.s.defaultService.id, [{ ...slot(), hostUserId: w.s.ta2.id }]);
      expect(results[0]?.errors?.[0]?.validOptions).toEqual([w.s.owner.id, w.s.ta1.id]);
    });

    it('rule 6: valid_options= lists at most 20 values and the message ends with the truncation text', async () => {
      const w = world();
      const extra = Array.from({ length: 25 }, (_, i) => w.s.school.addTeachingAssistant({ name: `TA ${i}` }).id);
      const { results } = await w.client.bulkCreateMeetings(w.s.defaultService.id, [{ ...slot(), hostUserId: 'nobody' }]);
      const error = results[0]?.errors?.[0];
      expect(error?.validOptions).toEqual([w.s.owner.id, w.s.ta1.id, w.s.ta2.id, ...extra].slice(0, 20));
      expect(error?.validOptionsTruncated).toBe(true);
      expect(error?.message.endsWith(VALID_OPTIONS_TRUNCATION_TEXT)).toBe(true);
      expect(VALID_OPTIONS_TRUNCATION_TEXT).toBe('(truncated; call meetingHosts / <video-platform host query> for the full list)');
    });

    it('rule 4: hostEmail must match one of the licences, else MEETING-011 with valid_options=<emails>', async () => {
      const w = world();
      const { results } = await w.client.bulkCreateMeetings(w.s.defaultService.id, [{ ...slot(), hostingType: 'videoconf', hostEmail: 'someone@else.example' }]);
      const error = results[0]?.errors?.[0];
      expect(error?.code).toBe('MEETING-011');
      expect(error?.validOptions).toEqual(['licence1@school.example', 'licence2@school.example']);
    });

    it('rule 4: hostEmail omitted with several licences: MEETING-011', async () => {
      const w = world();
      const { results } = await w.client.bulkCreateMeetings(w.s.defaultService.id, [{ ...slot(), hostingType: 'videoconf' }]);
      expect(results[0]?.errors?.[0]?.code).toBe('MEETING-011');
    });

    it('rule 4: hostEmail omitted and exactly one licence: that licence is used', async () => {
      const w = world();
      w.s.school.setVideoIntegration({ active: true, licenceEmails: ['only@school.example'] });
      const { results } = await w.client.bulkCreateMeetings(w.s.defaultService.id, [{ ...slot(), hostingType: 'videoconf' }]);
      expect(results[0]?.meeting?.hostEmail).toBe('only@school.example');
    });

    it('rule 4: MEETING-011 valid_options truncated at 20 licences', async () => {
      const w = world();
      const licences = Array.from({ length: 22 }, (_, i) => `l${i}@school.example`);
      w.s.school.setVideoIntegration({ active: true, licenceEmails: licences });
      const { results } = await w.client.bulkCreateMeetings(w.s.defaultService.id, [{ ...slot(), hostingType: 'videoconf', hostEmail: 'x@y.example' }]);
      expect(results[0]?.errors?.[0]).toMatchObject({ code: 'MEETING-011', validOptions: licences.slice(0, 20), validOptionsTruncated: true });
    });

    it('rule 4: MEETING-009 without an active video-platform integration', async () => {
      const w = world();
      w.sim.setVideoIntegrationActive(w.s.school.schoolId, false);
      const { results } = await w.client.bulkCreateMeetings(w.s.defaultService.id, [{ ...slot(), hostingType: 'videoconf', hostEmail: 'licence1@school.example' }]);
      expect(results[0]?.errors?.[0]?.code).toBe('MEETING-009');
    });

    it('rule 5: MEETING-008 for custom hosting without joinUrl (checked by the server too)', async () => {
      const w = world();
      const data = await w.send(BulkCreateConsultingMeetingsDocument, { serviceId: w.s.defaultService.id, inputs: [{ ...slot(), hostingType: 'custom' }] });
      expect(JSON.stringify(data)).toContain('MEETING-008: custom hosting requires joinUrl');
      const ok = await w.client.bulkCreateMeetings(w.s.defaultService.id, [{ ...slot(), hostingType: 'custom', joinUrl: 'https://meet.example/x' }]);
      expect(ok.results[0]?.meeting?.joinUrl).toBe('https://meet.example/x');
    });

    it('rule 7: videoconf rows are provisioned synchronously: hostingId and joinUrl are set in the result', async () => {
      const w = world();
      const { results } = await w.client.bulkCreateMeetings(w.s.defaultService.id, [{ ...slot(), hostingType: 'videoconf', hostEmail: 'licence2@school.example' }]);
      const meeting = results[0]?.meeting;
      expect(meeting?.hostingId).toMatch(/^vp_/);
      expect(meeting?.joinUrl).toBe(`https://video.example/j/${meeting?.hostingId}`);
      expect(w.sim.videoPlatform.meeting(meeting?.hostingId ?? '')?.hostEmail).toBe('licence2@school.example');
    });

    it('rule 7: when provisioning fails the local row is rolled back and that row reports the platform error', async () => {
      const w = world();
      w.sim.videoPlatform.failNextProvisioning();
      const videoRow = { ...slot(0), hostingType: 'videoconf' as const, hostEmail: 'licence1@school.example' };
      const result = await w.client.bulkCreateMeetings(w.s.defaultService.id, [videoRow, { ...videoRow, ...slot(1) }]);
      expect(result.results[0]?.meeting).toBeNull();
      expect(result.results[0]?.errors?.[0]?.message).toMatch(/^Video platform API error/);
      expect(result.results[1]?.meeting?.hostingId).toMatch(/^vp_/);
      expect(w.sim.school().tables.meetings.size).toBe(1);
    });

    it('rule 8: CONSULTING-001 when the parent service is not in the school', async () => {
      const w = world();
      await serverCode(w.client.bulkCreateMeetings(w.other.service.id, [slot()]), 'CONSULTING-001');
    });

    it('allSucceeded is true iff every row produced a meeting', async () => {
      const w = world();
      expect((await w.client.bulkCreateMeetings(w.s.defaultService.id, [slot()])).allSucceeded).toBe(true);
      expect((await w.client.bulkCreateMeetings(w.s.defaultService.id, [slot(), { ...slot(), endedAt: slot().startedAt }])).allSucceeded).toBe(false);
    });

    it('maxAttendeeCapacity 0 or null means unlimited', async () => {
      const w = world();
      const { results } = await w.client.bulkCreateMeetings(w.s.defaultService.id, [{ ...slot(), maxAttendeeCapacity: 0 }]);
      const id = results[0]?.meeting?.id ?? '';
      for (const member of [w.s.alice, w.s.bob, w.s.carol]) await w.client.enrollStudent(id, { userId: member.id });
      expect(w.sim.school().tables.meetings.get(id)?.attendeeIds).toHaveLength(3);
    });
  });
}
