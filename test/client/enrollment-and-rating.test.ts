import { describe, expect, it } from 'vitest';
import { attendeeRating, meeting } from '../support/fixtures.js';
import { useScriptedAdminApi, testClient } from '../support/scripted-admin-api.js';

const api = useScriptedAdminApi();

describe('enrollStudent (enrollStudentToConsultingMeeting)', () => {
  it('by userId: sends meetingId and userId, returns the meeting and the user', async () => {
    api.data({
      enrollStudentToConsultingMeeting: {
        meeting: meeting({ state: 'scheduled', attendeeCount: '1' }),
        user: { id: 'user-1', name: 'Ada', email: 'ada@example.com' },
        errors: null,
      },
    });
    const result = await testClient().enrollStudent('m-1', { userId: 'user-1' });
    expect(api.last.variables).toEqual({ meetingId: 'm-1', userId: 'user-1' });
    expect(result.meeting).toMatchObject({ state: 'scheduled', attendeeCount: 1 });
    expect(result.user).toEqual({ id: 'user-1', name: 'Ada', email: 'ada@example.com' });
  });

  it('by email with a name (to create a student when none matches)', async () => {
    const created = { id: 'user-new', name: 'New Student', email: 'new@example.com' };
    api.data({ enrollStudentToConsultingMeeting: { meeting: meeting(), user: created, errors: null } });
    const result = await testClient().enrollStudent('m-1', { email: 'new@example.com', name: 'New Student' });
    expect(api.last.variables).toEqual({ meetingId: 'm-1', email: 'new@example.com', name: 'New Student' });
    expect(result.user).toEqual(created);
  });
});

describe('removeStudent (removeStudentFromConsultingMeeting)', () => {
  it('sends meetingId and userId and returns the meeting (available again when emptied)', async () => {
    api.data({ removeStudentFromConsultingMeeting: { meeting: meeting({ state: 'available', attendeeCount: 0 }), errors: null } });
    const result = await testClient().removeStudent('m-1', 'user-1');
    expect(api.last.variables).toEqual({ meetingId: 'm-1', userId: 'user-1' });
    expect(result.state).toBe('available');
  });
});

describe('rescheduleStudent (rescheduleStudentConsultingMeeting)', () => {
  it('sends userId, fromMeetingId, toMeetingId and returns both meetings', async () => {
    api.data({
      rescheduleStudentConsultingMeeting: {
        fromMeeting: meeting({ id: 'm-1', state: 'available' }),
        toMeeting: meeting({ id: 'm-2', state: 'scheduled', attendeeCount: 1 }),
        errors: null,
      },
    });
    const result = await testClient().rescheduleStudent({ userId: 'user-1', fromMeetingId: 'm-1', toMeetingId: 'm-2' });
    expect(api.last.variables).toEqual({ userId: 'user-1', fromMeetingId: 'm-1', toMeetingId: 'm-2' });
    expect(result.fromMeeting?.state).toBe('available');
    expect(result.toMeeting.state).toBe('scheduled');
  });
});

describe('rateMeeting (rateConsultingMeeting)', () => {
  it('default mode: sends the student, score and comment; returns the rating', async () => {
    api.data({ rateConsultingMeeting: { attendeeRating: attendeeRating(), errors: null } });
    const rating = await testClient().rateMeeting('m-1', { userId: 'user-1' }, { score: 8.5, comment: 'Well prepared', raterId: 'ta-1' });
    expect(api.last.variables).toEqual({ meetingId: 'm-1', userId: 'user-1', score: 8.5, comment: 'Well prepared', raterId: 'ta-1' });
    expect(rating.rate).toEqual({ score: 8.5, comment: 'Well prepared' });
  });

  it('custom mode: sends the answers by email', async () => {
    api.data({ rateConsultingMeeting: { attendeeRating: attendeeRating({ rate: null }), errors: null } });
    const answers = [{ fieldId: 'f-1', value: 'Great' }, { fieldId: 'f-2', values: ['a', 'b'] }];
    await testClient().rateMeeting('m-1', { email: 'ada@example.com' }, { answers });
    expect(api.last.variables).toEqual({ meetingId: 'm-1', email: 'ada@example.com', answers });
  });
});
