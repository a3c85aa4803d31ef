import { describe, expect, it } from 'vitest';
import { RateConsultingMeetingDocument } from '../../../src/generated/graphql.js';
import type { AnswerInput } from '../../../src/index.js';
import { HOUR, NOW } from '../support/fixture.js';
import type { ConformanceTarget } from '../support/targets.js';
import { serverCode, useWorld, type World } from '../support/world.js';

/** An ended meeting of the default-mode service with Alice enrolled (hosted by TA One). */
function defaultModeMeeting(w: World) {
  return w.meeting({ startedAt: NOW - 2 * HOUR, endedAt: NOW - HOUR, hostUserId: w.s.ta1.id, attendeeIds: [w.s.alice.id] });
}

/** The same in the custom-mode service (rated with the form). */
function customModeMeeting(w: World) {
  return w.s.school.addMeeting({ serviceId: w.s.customService.id, startedAt: NOW - 2 * HOUR, endedAt: NOW - HOUR, hostUserId: w.s.ta1.id, attendeeIds: [w.s.alice.id] });
}

function fieldId(w: World, label: string): string {
  const field = w.s.form.fields.find((candidate) => candidate.label === label);
  if (!field) throw new Error(`no field ${label}`);
  return field.id;
}

function rateRaw(w: World, variables: Record<string, unknown>) {
  return w.send(RateConsultingMeetingDocument, variables);
}

/** rateConsultingMeeting: modes, grader, upsert, notification and every error it lists. */
export function ratingSection(target: ConformanceTarget): void {
  describe('rateConsultingMeeting', () => {
    const world = useWorld(target);

    it('default mode (no form): score 0.5 to 10 plus an optional comment', async () => {
      const w = world();
      const rating = await w.client.rateMeeting(defaultModeMeeting(w).id, { userId: w.s.alice.id }, { score: 8.5, comment: 'Great' });
      expect(rating).toEqual({ userId: w.s.alice.id, email: 'alice@school.example', name: 'Alice', rate: { score: 8.5, comment: 'Great' } });
    });

    it('the student can be identified by email (resolved within the school)', async () => {
      const w = world();
      const rating = await w.client.rateMeeting(defaultModeMeeting(w).id, { email: 'ALICE@school.example' }, { score: 0.5 });
      expect(rating.userId).toBe(w.s.alice.id);
    });

    it('custom mode (form configured): answers with one entry per answered field', async () => {
      const w = world();
      const meeting = customModeMeeting(w);
      await w.client.rateMeeting(meeting.id, { userId: w.s.alice.id }, { answers: [{ fieldId: fieldId(w, 'Overall'), value: 'Good' }, { fieldId: fieldId(w, 'Topics'), values: ['a', 'c'] }] });
      expect(w.sim.school().rating(meeting.id, w.s.alice.id)?.answers).toEqual([
        { fieldId: fieldId(w, 'Overall'), value: 'Good', values: null },
        { fieldId: fieldId(w, 'Topics'), value: null, values: ['a', 'c'] },
      ]);
    });

    it('upsert: a repeated call replaces the student\'s whole rating', async () => {
      const w = world();
      const meeting = defaultModeMeeting(w);
      await w.client.rateMeeting(meeting.id, { userId: w.s.alice.id }, { score: 3, comment: 'first' });
      const second = await w.client.rateMeeting(meeting.id, { userId: w.s.alice.id }, { score: 9 });
      expect(second.rate).toEqual({ score: 9, comment: null });
      expect([...w.sim.school().tables.ratings.values()].filter((rating) => rating.meetingId === meeting.id)).toHaveLength(1);
    });

    it('upsert in custom mode: the full answer set replaces the previous one', async () => {
      const w = world();
      const meeting = customModeMeeting(w);
      const overall = fieldId(w, 'Overall');
      await w.client.rateMeeting(meeting.id, { userId: w.s.alice.id }, { answers: [{ fieldId: overall, value: 'Good' }, { fieldId: fieldId(w, 'Notes'), value: 'x' }] });
      await w.client.rateMeeting(meeting.id, { userId: w.s.alice.id }, { answers: [{ fieldId: overall, value: 'Bad' }] });
      expect(w.sim.school().rating(meeting.id, w.s.alice.id)?.answers).toEqual([{ fieldId: overall, value: 'Bad', values: null }]);
    });

    it('the rated student is notified by email (the outbox)', async () => {
      const w = world();
      const meeting = defaultModeMeeting(w);
      await w.client.rateMeeting(meeting.id, { userId: w.s.alice.id }, { score: 7 });
      expect(w.sim.outbox()).toMatchObject([{ kind: 'rating_notification', to: 'alice@school.example', userId: w.s.alice.id, meetingId: meeting.id }]);
    });

    it('raterId omitted: the meeting\'s host user is the grader; raterId (owner or TA) names the grader', async () => {
      const w = world();
      const meeting = defaultModeMeeting(w);
      await w.client.rateMeeting(meeting.id, { userId: w.s.alice.id }, { score: 7 });
      expect(w.sim.school().rating(meeting.id, w.s.alice.id)?.raterId).toBe(w.s.ta1.id);
      await w.client.rateMeeting(meeting.id, { userId: w.s.alice.id }, { score: 7, raterId: w.s.owner.id });
      expect(w.sim.school().rating(meeting.id, w.s.alice.id)?.raterId).toBe(w.s.owner.id);
    });

    it('ENROLLMENT-001: neither userId nor email (checked by the server too)', async () => {
      const w = world();
      await serverCode(rateRaw(w, { meetingId: defaultModeMeeting(w).id, score: 5 }), 'ENROLLMENT-001');
    });

    it('MEETING-016: both userId and email (checked by the server too)', async () => {
      const w = world();
      await serverCode(rateRaw(w, { meetingId: defaultModeMeeting(w).id, userId: w.s.alice.id, email: 'alice@school.example', score: 5 }), 'MEETING-016');
    });

    it('MEETING-001: meeting not found', async () => {
      const w = world();
      await serverCode(w.client.rateMeeting(w.other.meeting.id, { userId: w.other.member.id }, { score: 5 }), 'MEETING-001');
    });

    it('canceled: rate rejected with MEETING-007', async () => {
      const w = world();
      const meeting = w.meeting({ canceled: true, attendeeIds: [w.s.alice.id] });
      await serverCode(w.client.rateMeeting(meeting.id, { userId: w.s.alice.id }, { score: 5 }), 'MEETING-007');
    });

    it('ENROLLMENT-002: student not found in the school (unknown email, another school\'s member)', async () => {
      const w = world();
      const meeting = defaultModeMeeting(w);
      await serverCode(w.client.rateMeeting(meeting.id, { email: 'stranger@school.example' }, { score: 5 }), 'ENROLLMENT-002');
      await serverCode(w.client.rateMeeting(meeting.id, { userId: w.other.member.id }, { score: 5 }), 'ENROLLMENT-002');
    });

    it('MEETING-006: student not enrolled', async () => {
      const w = world();
      await serverCode(w.client.rateMeeting(defaultModeMeeting(w).id, { userId: w.s.bob.id }, { score: 5 }), 'MEETING-006');
    });

    it('MEETING-013: answers sent to a default-mode service', async () => {
      const w = world();
      await serverCode(w.client.rateMeeting(defaultModeMeeting(w).id, { userId: w.s.alice.id }, { answers: [{ fieldId: 'x', value: 'y' }] }), 'MEETING-013');
    });

    it('MEETING-013: score or comment sent to a custom-mode service (checked by the server too)', async () => {
      const w = world();
      const meeting = customModeMeeting(w);
      await serverCode(w.client.rateMeeting(meeting.id, { userId: w.s.alice.id }, { score: 5 }), 'MEETING-013');
      await serverCode(rateRaw(w, { meetingId: meeting.id, userId: w.s.alice.id, score: 5, answers: [{ fieldId: fieldId(w, 'Overall'), value: 'Good' }] }), 'MEETING-013');
    });

    it.each([[0], [0.25], [10.5], [7.3], [-1]])('MEETING-014: score %d outside 0.5 to 10 in steps of 0.5 (checked by the server too)', async (score) => {
      const w = world();
      await serverCode(rateRaw(w, { meetingId: defaultModeMeeting(w).id, userId: w.s.alice.id, score }), 'MEETING-014');
    });

    it('MEETING-014: score missing in default mode', async () => {
      const w = world();
      await serverCode(w.client.rateMeeting(defaultModeMeeting(w).id, { userId: w.s.alice.id }, { comment: 'no score' }), 'MEETING-014');
    });

    it.each([
      ['unknown fieldId', 'unknown fieldId', (w: World): AnswerInput[] => [{ fieldId: fieldId(w, 'Overall'), value: 'Good' }, { fieldId: 'unknown', value: 'x' }]],
      ['duplicate fieldId', 'duplicate fieldId', (w: World): AnswerInput[] => [{ fieldId: fieldId(w, 'Overall'), value: 'Good' }, { fieldId: fieldId(w, 'Overall'), value: 'Bad' }]],
      ['both value and values set', 'both value and values are set', (w: World): AnswerInput[] => [{ fieldId: fieldId(w, 'Overall'), value: 'Good', values: ['Good'] }]],
      ['missing required field', 'missing required field', (w: World): AnswerInput[] => [{ fieldId: fieldId(w, 'Notes'), value: 'only notes' }]],
      ['invalid option', 'invalid option', (w: World): AnswerInput[] => [{ fieldId: fieldId(w, 'Overall'), value: 'Superb' }]],
      ['invalid option in a multi-select', 'invalid option', (w: World): AnswerInput[] => [{ fieldId: fieldId(w, 'Overall'), value: 'Good' }, { fieldId: fieldId(w, 'Topics'), values: ['a', 'z'] }]],
      ['address-type field (unsupported)', 'address fields are not supported', (w: World): AnswerInput[] => [{ fieldId: fieldId(w, 'Overall'), value: 'Good' }, { fieldId: fieldId(w, 'Address'), value: '1 Main St' }]],
    ])('MEETING-015: answer validation fails on %s', async (_case, reason, answers) => {
      const w = world();
      const meeting = customModeMeeting(w);
      const error = await serverCode(w.client.rateMeeting(meeting.id, { userId: w.s.alice.id }, { answers: answers(w) }), 'MEETING-015');
      expect(error.details).toMatchObject({ reason });
      expect(w.sim.school().rating(meeting.id, w.s.alice.id)).toBeUndefined();
    });

    it('MEETING-017: raterId not a valid grader', async () => {
      const w = world();
      await serverCode(w.client.rateMeeting(defaultModeMeeting(w).id, { userId: w.s.alice.id }, { score: 5, raterId: w.s.bob.id }), 'MEETING-017');
    });

    it('MEETING-018: raterId omitted and the host is not a valid grader (a deleted TA)', async () => {
      const w = world();
      const meeting = defaultModeMeeting(w);
      w.sim.deleteUser(w.s.ta1.id);
      await serverCode(w.client.rateMeeting(meeting.id, { userId: w.s.alice.id }, { score: 5 }), 'MEETING-018');
      expect((await w.client.rateMeeting(meeting.id, { userId: w.s.alice.id }, { score: 5, raterId: w.s.ta2.id })).rate?.score).toBe(5);
    });

    it('a rejected rating sends no email', async () => {
      const w = world();
      await serverCode(w.client.rateMeeting(defaultModeMeeting(w).id, { userId: w.s.bob.id }, { score: 5 }), 'MEETING-006');
      expect(w.sim.outbox()).toEqual([]);
    });
  });
}
