import { describe, expect, it } from 'vitest';
import { EnrollStudentToConsultingMeetingDocument, RescheduleStudentConsultingMeetingDocument } from '../../../src/generated/graphql.js';
import { HOUR, NOW } from '../support/fixture.js';
import type { ConformanceTarget } from '../support/targets.js';
import { serverCode, useWorld } from '../support/world.js';

const ENROLL_BOTH = EnrollStudentToConsultingMeetingDocument;

/** enroll / remove / reschedule and the consulting meeting state table. */
export function enrollmentSection(target: ConformanceTarget): void {
  describe('enrollStudentToConsultingMeeting', () => {
    const world = useWorld(target);

    it('available -> scheduled on the first enrollment', async () => {
      const w = world();
      const { meeting, user } = await w.client.enrollStudent(w.meeting().id, { userId: w.s.alice.id });
      expect(meeting).toMatchObject({ state: 'scheduled', attendeeCount: 1 });
      expect(user).toEqual({ id: w.s.alice.id, name: 'Alice', email: 'alice@school.example' });
    });

    it('scheduled -> scheduled on a further enrollment', async () => {
      const w = world();
      const meeting = w.meeting({ attendeeIds: [w.s.alice.id] });
      const result = await w.client.enrollStudent(meeting.id, { userId: w.s.bob.id });
      expect(result.meeting).toMatchObject({ state: 'scheduled', attendeeCount: 2 });
    });

    it('idempotent: re-enrolling an enrolled student is a no-op returning the existing meeting', async () => {
      const w = world();
      const meeting = w.meeting({ attendeeIds: [w.s.alice.id], maxAttendeeCapacity: 1 });
      const result = await w.client.enrollStudent(meeting.id, { userId: w.s.alice.id });
      expect(result.meeting).toMatchObject({ id: meeting.id, attendeeCount: 1, state: 'scheduled' });
    });

    it('by email: an existing member is matched within the school (case-insensitively)', async () => {
      const w = world();
      const { user } = await w.client.enrollStudent(w.meeting().id, { email: 'BOB@school.example' });
      expect(user?.id).toBe(w.s.bob.id);
    });

    it('by email with no matching student: a school-scoped student is created (no email is sent)', async () => {
      const w = world();
      const { user } = await w.client.enrollStudent(w.meeting().id, { email: 'new@school.example', name: 'Newcomer' });
      const created = w.sim.school().tables.users.get(user?.id ?? '');
      expect(created).toMatchObject({ email: 'new@school.example', name: 'Newcomer', roles: ['member'], createdVia: 'admin_api' });
      expect(w.sim.outbox()).toEqual([]);
    });

    it('both userId and email (not shown): the userId identifies the student', async () => {
      const w = world();
      const data = await w.send(ENROLL_BOTH, { meetingId: w.meeting().id, userId: w.s.alice.id, email: 'bob@school.example' });
      expect(data).toMatchObject({ enrollStudentToConsultingMeeting: { user: { id: w.s.alice.id } } });
    });

    it('ENROLLMENT-001: neither userId nor email', async () => {
      const w = world();
      await serverCode(w.send(ENROLL_BOTH, { meetingId: w.meeting().id }), 'ENROLLMENT-001');
    });

    it('ENROLLMENT-002: userId not a student of this school (another school\'s member, a deleted account)', async () => {
      const w = world();
      const meeting = w.meeting();
      await serverCode(w.client.enrollStudent(meeting.id, { userId: w.other.member.id }), 'ENROLLMENT-002');
      await serverCode(w.client.enrollStudent(meeting.id, { userId: w.s.deleted.id }), 'ENROLLMENT-002');
    });

    it('ENROLLMENT-005: student creation failed (the email belongs to a deleted account)', async () => {
      const w = world();
      await serverCode(w.client.enrollStudent(w.meeting().id, { email: 'gone@school.example', name: 'Again' }), 'ENROLLMENT-005');
    });

    it('ENROLLMENT-006: missing or badly formatted email', async () => {
      const w = world();
      await serverCode(w.client.enrollStudent(w.meeting().id, { email: 'not-an-email', name: 'X' }), 'ENROLLMENT-006');
      await serverCode(w.send(ENROLL_BOTH, { meetingId: w.meeting().id, email: '', name: 'X' }), 'ENROLLMENT-006');
    });

    it('ENROLLMENT-007: name required when creating by email', async () => {
      const w = world();
      await serverCode(w.client.enrollStudent(w.meeting().id, { email: 'fresh@school.example' }), 'ENROLLMENT-007');
      expect(w.sim.school().anyUserByEmail('fresh@school.example')).toBeUndefined();
    });

    it('MEETING-001: meeting not found', async () => {
      const w = world();
      await serverCode(w.client.enrollStudent(w.other.meeting.id, { userId: w.s.alice.id }), 'MEETING-001');
    });

    it('canceled: enroll rejected with MEETING-007', async () => {
      const w = world();
      await serverCode(w.client.enrollStudent(w.meeting({ canceled: true }).id, { userId: w.s.alice.id }), 'MEETING-007');
    });

    it('MEETING-004: meeting at maximum attendee capacity (no student is created)', async () => {
      const w = world();
      const meeting = w.meeting({ attendeeIds: [w.s.alice.id], maxAttendeeCapacity: 1 });
      await serverCode(w.client.enrollStudent(meeting.id, { userId: w.s.bob.id }), 'MEETING-004');
      await serverCode(w.client.enrollStudent(meeting.id, { email: 'late@school.example', name: 'Late' }), 'MEETING-004');
      expect(w.sim.school().anyUserByEmail('late@school.example')).toBeUndefined();
    });
  });

  describe('removeStudentFromConsultingMeeting', () => {
    const world = useWorld(target);

    it('scheduled -> available when it leaves zero attendees (discoverable again through state filters)', async () => {
      const w = world();
      const meeting = w.meeting({ attendeeIds: [w.s.alice.id] });
      const result = await w.client.removeStudent(meeting.id, w.s.alice.id);
      expect(result).toMatchObject({ state: 'available', attendeeCount: 0 });
    });

    it('scheduled -> scheduled when attendees remain', async () => {
      const w = world();
      const meeting = w.meeting({ attendeeIds: [w.s.alice.id, w.s.bob.id] });
      expect(await w.client.removeStudent(meeting.id, w.s.alice.id)).toMatchObject({ state: 'scheduled', attendeeCount: 1 });
    });

    it('MEETING-001: not found', async () => {
      const w = world();
      await serverCode(w.client.removeStudent(w.other.meeting.id, w.other.member.id), 'MEETING-001');
    });

    it('canceled: remove rejected with MEETING-007', async () => {
      const w = world();
      await serverCode(w.client.removeStudent(w.meeting({ canceled: true, attendeeIds: [w.s.alice.id] }).id, w.s.alice.id), 'MEETING-007');
    });

    it('MEETING-006: student not enrolled', async () => {
      const w = world();
      await serverCode(w.client.removeStudent(w.meeting({ attendeeIds: [w.s.alice.id] }).id, w.s.bob.id), 'MEETING-006');
    });
  });

  describe('rescheduleStudentConsultingMeeting', () => {
    const world = useWorld(target);

    it('moves the student: target becomes scheduled, source reverts to available when emptied', async () => {
      const w = world();
      const from = w.meeting({ attendeeIds: [w.s.alice.id] });
      const to = w.meeting();
      const result = await w.client.rescheduleStudent({ userId: w.s.alice.id, fromMeetingId: from.id, toMeetingId: to.id });
      expect(result.fromMeeting).toMatchObject({ state: 'available', attendeeCount: 0 });
      expect(result.toMeeting).toMatchObject({ state: 'scheduled', attendeeCount: 1 });
    });

    it('the source stays scheduled when other attendees remain', async () => {
      const w = world();
      const from = w.meeting({ attendeeIds: [w.s.alice.id, w.s.bob.id] });
      const result = await w.client.rescheduleStudent({ userId: w.s.alice.id, fromMeetingId: from.id, toMeetingId: w.meeting().id });
      expect(result.fromMeeting).toMatchObject({ state: 'scheduled', attendeeCount: 1 });
    });

    it('atomic: a full target rolls everything back and the student stays in the source (MEETING-004)', async () => {
      const w = world();
      const from = w.meeting({ attendeeIds: [w.s.alice.id] });
      const to = w.meeting({ attendeeIds: [w.s.bob.id], maxAttendeeCapacity: 1 });
      await serverCode(w.client.rescheduleStudent({ userId: w.s.alice.id, fromMeetingId: from.id, toMeetingId: to.id }), 'MEETING-004');
      const { meetings } = w.sim.school().tables;
      expect(meetings.get(from.id)).toMatchObject({ attendeeIds: [w.s.alice.id], state: 'scheduled' });
      expect(meetings.get(to.id)?.attendeeIds).toEqual([w.s.bob.id]);
    });

    it('convergent: already in the target, the enroll step is skipped and the student is still removed from the source', async () => {
      const w = world();
      const from = w.meeting({ attendeeIds: [w.s.alice.id] });
      const to = w.meeting({ attendeeIds: [w.s.alice.id], maxAttendeeCapacity: 1 });
      const result = await w.client.rescheduleStudent({ userId: w.s.alice.id, fromMeetingId: from.id, toMeetingId: to.id });
      expect(result.fromMeeting).toMatchObject({ attendeeCount: 0, state: 'available' });
      expect(result.toMeeting).toMatchObject({ attendeeCount: 1 });
      // A retry of the same move converges too.
      const again = await w.client.rescheduleStudent({ userId: w.s.alice.id, fromMeetingId: from.id, toMeetingId: to.id });
      expect(again.toMeeting.attendeeCount).toBe(1);
    });

    it('source and target may belong to different consulting services of the school', async () => {
      const w = world();
      const from = w.meeting({ attendeeIds: [w.s.alice.id] });
      const to = w.s.school.addMeeting({ serviceId: w.s.customService.id, startedAt: NOW + HOUR * 30, endedAt: NOW + HOUR * 31 });
      const result = await w.client.rescheduleStudent({ userId: w.s.alice.id, fromMeetingId: from.id, toMeetingId: to.id });
      expect(result.toMeeting).toMatchObject({ serviceId: w.s.customService.id, attendeeCount: 1 });
    });

    it('MEETING-001: source or target not found', async () => {
      const w = world();
      const mine = w.meeting({ attendeeIds: [w.s.alice.id] });
      await serverCode(w.client.rescheduleStudent({ userId: w.s.alice.id, fromMeetingId: w.other.meeting.id, toMeetingId: mine.id }), 'MEETING-001');
      await serverCode(w.client.rescheduleStudent({ userId: w.s.alice.id, fromMeetingId: mine.id, toMeetingId: w.other.meeting.id }), 'MEETING-001');
    });

    it('MEETING-007: either meeting canceled', async () => {
      const w = world();
      const open = w.meeting({ attendeeIds: [w.s.alice.id] });
      const canceled = w.meeting({ canceled: true, attendeeIds: [w.s.alice.id] });
      await serverCode(w.client.rescheduleStudent({ userId: w.s.alice.id, fromMeetingId: canceled.id, toMeetingId: open.id }), 'MEETING-007');
      await serverCode(w.client.rescheduleStudent({ userId: w.s.alice.id, fromMeetingId: open.id, toMeetingId: canceled.id }), 'MEETING-007');
    });

    it('MEETING-019: source and target are the same (checked by the server too)', async () => {
      const w = world();
      const meeting = w.meeting({ attendeeIds: [w.s.alice.id] });
      const variables = { userId: w.s.alice.id, fromMeetingId: meeting.id, toMeetingId: meeting.id };
      await serverCode(w.send(RescheduleStudentConsultingMeetingDocument, variables), 'MEETING-019');
    });

    it('MEETING-006: student in neither meeting', async () => {
      const w = world();
      await serverCode(w.client.rescheduleStudent({ userId: w.s.carol.id, fromMeetingId: w.meeting().id, toMeetingId: w.meeting().id }), 'MEETING-006');
    });

    it('MEETING-020: moving out of a meeting that has already ended (its rating would be destroyed)', async () => {
      const w = world();
      const ended = w.meeting({ startedAt: NOW - 2 * HOUR, endedAt: NOW - HOUR, attendeeIds: [w.s.alice.id] });
      await serverCode(w.client.rescheduleStudent({ userId: w.s.alice.id, fromMeetingId: ended.id, toMeetingId: w.meeting().id }), 'MEETING-020');
      expect(w.sim.school().tables.meetings.get(ended.id)?.attendeeIds).toEqual([w.s.alice.id]);
    });

    it('moving into an ended meeting is allowed (the check applies to the source only)', async () => {
      const w = world();
      const from = w.meeting({ attendeeIds: [w.s.alice.id] });
      const ended = w.meeting({ startedAt: NOW - 2 * HOUR, endedAt: NOW - HOUR });
      const result = await w.client.rescheduleStudent({ userId: w.s.alice.id, fromMeetingId: from.id, toMeetingId: ended.id });
      expect(result.toMeeting).toMatchObject({ id: ended.id, state: 'scheduled' });
    });
  });
}
