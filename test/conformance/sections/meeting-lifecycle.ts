import { describe, expect, it } from 'vitest';
import { UpdateConsultingMeetingDocument } from '../../../src/generated/graphql.js';
import { MEETING_MESSAGES } from '../../../src/testing/index.js';
import { DAY, HOUR, NOW } from '../support/fixture.js';
import type { ConformanceTarget } from '../support/targets.js';
import { serverCode, useWorld } from '../support/world.js';

/** updateConsultingMeeting, cancelConsultingMeeting, bulkCancelConsultingMeetings and the cancel transitions. */
export function meetingLifecycleSection(target: ConformanceTarget): void {
  describe('updateConsultingMeeting', () => {
    const world = useWorld(target);

    it('only provided fields change', async () => {
      const w = world();
      const meeting = w.meeting({ title: 'Before', price: 10 });
      const updated = await w.client.updateMeeting(meeting.id, { description: 'Bring a CV' });
      expect(updated).toMatchObject({ title: 'Before', price: 10, description: 'Bring a CV', startedAt: meeting.startedAt });
    });

    it('explicit null means no change (a lecturer or host once assigned cannot be unassigned)', async () => {
      const w = world();
      const meeting = w.meeting({ hostUserId: w.s.ta1.id, title: 'Keep' });
      const updated = await w.client.updateMeeting(meeting.id, { lecturerId: null, hostUserId: null, title: null });
      expect(updated).toMatchObject({ lecturerId: w.s.lecturer.id, hostUserId: w.s.ta1.id, title: 'Keep' });
    });

    it('changes the time of a meeting without enrolled students', async () => {
      const w = world();
      const meeting = w.meeting();
      const updated = await w.client.updateMeeting(meeting.id, { startedAt: NOW + 2 * DAY, endedAt: NOW + 2 * DAY + HOUR });
      expect(updated).toMatchObject({ startedAt: NOW + 2 * DAY, endedAt: NOW + 2 * DAY + HOUR });
    });

    it('MEETING-003: startedAt / endedAt rejected when the meeting has enrolled students', async () => {
      const w = world();
      const meeting = w.meeting({ attendeeIds: [w.s.alice.id] });
      await serverCode(w.client.updateMeeting(meeting.id, { startedAt: NOW + 2 * DAY }), 'MEETING-003');
      await serverCode(w.client.updateMeeting(meeting.id, { endedAt: NOW + 3 * DAY }), 'MEETING-003');
    });

    it('other fields stay editable on scheduled meetings; to change who runs it, set hostUserId', async () => {
      const w = world();
      const meeting = w.meeting({ attendeeIds: [w.s.alice.id] });
      const updated = await w.client.updateMeeting(meeting.id, { title: 'Renamed', hostUserId: w.s.ta2.id, maxAttendeeCapacity: 5 });
      expect(updated).toMatchObject({ state: 'scheduled', title: 'Renamed', hostUserId: w.s.ta2.id, maxAttendeeCapacity: 5 });
    });

    it('MEETING-001: not found (another school\'s meeting)', async () => {
      const w = world();
      await serverCode(w.client.updateMeeting(w.other.meeting.id, { title: 'X' }), 'MEETING-001');
    });

    it('canceled: update rejected with MEETING-007', async () => {
      const w = world();
      const meeting = w.meeting({ canceled: true });
      await serverCode(w.client.updateMeeting(meeting.id, { title: 'X' }), 'MEETING-007');
    });

    it('MEETING-008: resulting custom hosting without joinUrl (checked by the server too)', async () => {
      const w = world();
      const meeting = w.meeting();
      await serverCode(w.send(UpdateConsultingMeetingDocument, { id: meeting.id, input: { hostingType: 'custom' } }), 'MEETING-008');
      const ok = await w.client.updateMeeting(meeting.id, { hostingType: 'custom', joinUrl: 'https://meet.example/1' });
      expect(ok.hostingType).toBe('custom');
    });

    it('MEETING-009: resulting videoconf without an active integration', async () => {
      const w = world();
      w.sim.setVideoIntegrationActive(w.s.school.schoolId, false);
      const meeting = w.meeting();
      await serverCode(w.client.updateMeeting(meeting.id, { hostingType: 'videoconf', hostEmail: 'licence1@school.example' }), 'MEETING-009');
    });

    it('MEETING-011: hostEmail not among the licences', async () => {
      const w = world();
      const meeting = w.meeting({ hostingType: 'videoconf', hostEmail: 'licence1@school.example' });
      const error = await serverCode(w.client.updateMeeting(meeting.id, { hostEmail: 'nobody@school.example' }), 'MEETING-011');
      expect(error.details).toMatchObject({ validOptions: ['licence1@school.example', 'licence2@school.example'] });
    });

    it('switching to videoconf provisions the platform meeting', async () => {
      const w = world();
      const meeting = w.meeting();
      const updated = await w.client.updateMeeting(meeting.id, { hostingType: 'videoconf', hostEmail: 'licence2@school.example' });
      expect(updated.hostingId).toMatch(/^vp_/);
      expect(updated.joinUrl).toMatch(/^https:\/\/video\.example\/j\//);
    });

    it('MEETING-012: hostUserId not the owner or a TA', async () => {
      const w = world();
      const meeting = w.meeting();
      const error = await serverCode(w.client.updateMeeting(meeting.id, { hostUserId: w.s.bob.id }), 'MEETING-012');
      expect(error.details).toMatchObject({ validOptions: [w.s.owner.id, w.s.ta1.id, w.s.ta2.id] });
    });
  });

  describe('cancelConsultingMeeting', () => {
    const world = useWorld(target);

    it('available -> canceled', async () => {
      const w = world();
      expect((await w.client.cancelMeeting(w.meeting().id)).state).toBe('canceled');
    });

    it('scheduled -> canceled', async () => {
      const w = world();
      const meeting = w.meeting({ attendeeIds: [w.s.alice.id] });
      expect((await w.client.cancelMeeting(meeting.id)).state).toBe('canceled');
    });

    it('video-platform hosted: the platform-side meeting is deleted and the local record keeps its hosting metadata', async () => {
      const w = world();
      const meeting = w.meeting({ hostingType: 'videoconf', hostEmail: 'licence1@school.example' });
      const canceled = await w.client.cancelMeeting(meeting.id);
      expect(canceled).toMatchObject({ state: 'canceled', hostingType: 'videoconf', hostingId: meeting.hostingId, joinUrl: meeting.joinUrl, hostEmail: 'licence1@school.example' });
      expect(w.sim.videoPlatform.meeting(meeting.hostingId ?? '')?.deletedAt).toBe(NOW);
    });

    it('MEETING-001: not found', async () => {
      const w = world();
      await serverCode(w.client.cancelMeeting(w.other.meeting.id), 'MEETING-001');
    });

    it('MEETING-007: already canceled', async () => {
      const w = world();
      await serverCode(w.client.cancelMeeting(w.meeting({ canceled: true }).id), 'MEETING-007');
    });
  });

  describe('bulkCancelConsultingMeetings', () => {
    const world = useWorld(target);

    it('cancels each row; results in the order of ids', async () => {
      const w = world();
      const a = w.meeting();
      const b = w.meeting({ attendeeIds: [w.s.alice.id] });
      const result = await w.client.bulkCancelMeetings([b.id, a.id]);
      expect(result.allSucceeded).toBe(true);
      expect(result.results.map((row) => [row.meeting?.id, row.meeting?.state])).toEqual([
        [b.id, 'canceled'],
        [a.id, 'canceled'],
      ]);
    });

    it('per row: MEETING-001 (not found) and MEETING-007 (already canceled, meeting null)', async () => {
      const w = world();
      const open = w.meeting();
      const canceled = w.meeting({ canceled: true });
      const result = await w.client.bulkCancelMeetings([open.id, w.other.meeting.id, canceled.id]);
      expect(result.allSucceeded).toBe(false);
      expect(result.results[0]?.meeting?.state).toBe('canceled');
      expect(result.results[1]).toMatchObject({ meeting: null, errors: [{ code: 'MEETING-001' }] });
      expect(result.results[2]).toMatchObject({ meeting: null, errors: [{ code: 'MEETING-007', message: MEETING_MESSAGES.alreadyCanceled }] });
    });

    it('atomic: true rolls all rows back when any fails', async () => {
      const w = world();
      const open = w.meeting();
      const result = await w.client.bulkCancelMeetings([open.id, 'missing'], { atomic: true });
      expect(result.allSucceeded).toBe(false);
      expect(result.results[0]).toMatchObject({ meeting: null, errors: [{ message: MEETING_MESSAGES.rolledBack }] });
      expect(w.sim.school().tables.meetings.get(open.id)?.state).toBe('available');
    });

    it('MEETING-010: atomic: true with a video-platform-hosted meeting in the batch', async () => {
      const w = world();
      const hosted = w.meeting({ hostingType: 'videoconf', hostEmail: 'licence1@school.example' });
      await serverCode(w.client.bulkCancelMeetings([w.meeting().id, hosted.id], { atomic: true }), 'MEETING-010');
      expect(w.sim.school().tables.meetings.get(hosted.id)?.state).toBe('available');
    });
  });
}
