import { describe, expect, it } from 'vitest';
import { CreateConsultingServiceDocument, UpdateConsultingServiceDocument } from '../../../src/generated/graphql.js';
import { PayloadError } from '../../../src/index.js';
import { SERVICE_MESSAGES } from '../../../src/testing/index.js';
import { DAY, HOUR, NOW } from '../support/fixture.js';
import type { ConformanceTarget } from '../support/targets.js';
import { serverCode, useWorld } from '../support/world.js';

/** createConsultingService, updateConsultingService, deleteConsultingService and the service state table. */
export function consultingServicesSection(target: ConformanceTarget): void {
  describe('createConsultingService', () => {
    const world = useWorld(target);

    it('creates a consulting service attached to its course as target, tags in its settings', async () => {
      const w = world();
      const service = await w.client.createConsultingService({ name: 'Career chat', courseId: w.s.course.id, tags: ['a', 'b'], description: 'Talk', backgroundColor: '#AABBCC' });
      expect(service).toMatchObject({ name: 'Career chat', courseId: w.s.course.id, tags: ['a', 'b'], description: 'Talk', backgroundColor: '#AABBCC', published: false, publishedAt: null });
      const record = w.sim.school().tables.services.get(service.id);
      expect(record).toMatchObject({ serviceType: 'consulting', targetId: w.s.course.id, settings: { tags: ['a', 'b'] } });
    });

    it('published: true publishes it and stamps publishedAt with the current time', async () => {
      const w = world();
      const service = await w.client.createConsultingService({ name: 'Live', courseId: w.s.course.id, published: true });
      expect(service.published).toBe(true);
      expect(service.publishedAt).toBe(NOW);
    });

    it('slug is derived from the name when blank', async () => {
      const w = world();
      expect((await w.client.createConsultingService({ name: 'Résumé Review 1:1', courseId: w.s.course.id })).slug).toBe('resume-review-1-1');
      expect((await w.client.createConsultingService({ name: 'Résumé Review 1:1', courseId: w.s.course.id, slug: '' })).slug).toBe('resume-review-1-1-2');
    });

    it('effectiveTimezone is the IANA zone meeting times are converted with', async () => {
      const w = world();
      expect((await w.client.createConsultingService({ name: 'Tz', courseId: w.s.course.id })).effectiveTimezone).toBe('Europe/Berlin');
    });

    it('CONSULTING-002: courseId not a course of the school (another school\'s course too)', async () => {
      const w = world();
      await serverCode(w.client.createConsultingService({ name: 'X', courseId: 'missing' }), 'CONSULTING-002');
      await serverCode(w.client.createConsultingService({ name: 'X', courseId: w.other.course.id }), 'CONSULTING-002');
    });

    it('CONSULTING-003: slug not matching ^[a-z0-9-]+$ (checked by the server too)', async () => {
      const w = world();
      await serverCode(w.send(CreateConsultingServiceDocument, { input: { name: 'X', courseId: w.s.course.id, slug: 'Bad_Slug' } }), 'CONSULTING-003');
    });

    it('CONSULTING-005: lecturerId not a lecturer of the school', async () => {
      const w = world();
      await serverCode(w.client.createConsultingService({ name: 'X', courseId: w.s.course.id, lecturerId: w.other.lecturer.id }), 'CONSULTING-005');
    });

    it('CONSULTING-006: ratingFormId not a form of the school', async () => {
      const w = world();
      await serverCode(w.client.createConsultingService({ name: 'X', courseId: w.s.course.id, ratingFormId: w.other.form.id }), 'CONSULTING-006');
    });

    it('model-validation failure returns { consultingService: null, errors: [...] }', async () => {
      const w = world();
      const data = await w.send(CreateConsultingServiceDocument, { input: { name: 'X', courseId: w.s.course.id, backgroundColor: 'blue' } });
      expect(data).toEqual({ createConsultingService: { consultingService: null, errors: [SERVICE_MESSAGES.colorInvalid] } });
      await expect(w.client.createConsultingService({ name: ' ', courseId: w.s.course.id })).rejects.toBeInstanceOf(PayloadError);
    });
  });

  describe('updateConsultingService', () => {
    const world = useWorld(target);

    it('applies only provided keys', async () => {
      const w = world();
      const before = w.s.defaultService;
      const updated = await w.client.updateConsultingService(before.id, { description: 'New' });
      expect(updated).toMatchObject({ name: before.name, slug: before.slug, description: 'New', lecturerId: w.s.lecturer.id });
    });

    it('explicit null clears lecturerId, ratingFormId and backgroundColor', async () => {
      const w = world();
      const service = w.s.school.addService({ courseId: w.s.course.id, lecturerId: w.s.lecturer.id, ratingFormId: w.s.form.id, backgroundColor: '#000' });
      const updated = await w.client.updateConsultingService(service.id, { lecturerId: null, ratingFormId: null, backgroundColor: null });
      expect(updated).toMatchObject({ lecturerId: null, ratingFormId: null, backgroundColor: null });
    });

    it('courseId cannot be updated: the input has no such field', async () => {
      const w = world();
      const error = await w.send(UpdateConsultingServiceDocument, { id: w.s.defaultService.id, input: { courseId: w.other.course.id } }).catch((e: unknown) => e);
      expect(String((error as Error).message)).toMatch(/courseId/);
      expect(w.sim.school().tables.services.get(w.s.defaultService.id)?.targetId).toBe(w.s.course.id);
    });

    it('tags replaces the entire list', async () => {
      const w = world();
      await w.client.updateConsultingService(w.s.defaultService.id, { tags: ['x', 'y'] });
      expect((await w.client.updateConsultingService(w.s.defaultService.id, { tags: ['z'] })).tags).toEqual(['z']);
    });

    it('published: true stamps publishedAt on first publish only; published: false keeps it', async () => {
      const w = world();
      const id = w.s.defaultService.id;
      expect((await w.client.updateConsultingService(id, { published: true })).publishedAt).toBe(NOW);
      w.clock.advance(HOUR * 1000);
      const unpublished = await w.client.updateConsultingService(id, { published: false });
      expect(unpublished).toMatchObject({ published: false, publishedAt: NOW });
      expect(await w.client.updateConsultingService(id, { published: true })).toMatchObject({ published: true, publishedAt: NOW });
    });

    it('reassigning lecturerId changes only the service-level lecturer; existing meetings keep theirs', async () => {
      const w = world();
      const meeting = w.meeting();
      expect(meeting.lecturerId).toBe(w.s.lecturer.id);
      await w.client.updateConsultingService(w.s.defaultService.id, { lecturerId: w.s.lecturer2.id });
      expect(w.sim.school().tables.meetings.get(meeting.id)?.lecturerId).toBe(w.s.lecturer.id);
    });

    it('CONSULTING-001: service not found (another school\'s, or discarded)', async () => {
      const w = world();
      await serverCode(w.client.updateConsultingService(w.other.service.id, { name: 'X' }), 'CONSULTING-001');
      const discarded = w.s.school.addService({ courseId: w.s.course.id, discarded: true });
      await serverCode(w.client.updateConsultingService(discarded.id, { name: 'X' }), 'CONSULTING-001');
    });

    it('CONSULTING-003: invalid slug (checked by the server too)', async () => {
      const w = world();
      await serverCode(w.send(UpdateConsultingServiceDocument, { id: w.s.defaultService.id, input: { slug: 'no spaces' } }), 'CONSULTING-003');
    });

    it('CONSULTING-005 and CONSULTING-006: foreign lecturer or form', async () => {
      const w = world();
      await serverCode(w.client.updateConsultingService(w.s.defaultService.id, { lecturerId: 'missing' }), 'CONSULTING-005');
      await serverCode(w.client.updateConsultingService(w.s.defaultService.id, { ratingFormId: 'missing' }), 'CONSULTING-006');
    });
  });

  describe('deleteConsultingService', () => {
    const world = useWorld(target);

    it('soft-deletes: discardedAt set, the record kept', async () => {
      const w = world();
      const deleted = await w.client.deleteConsultingService(w.s.defaultService.id);
      expect(deleted.discardedAt).toBe(NOW);
      expect(w.sim.school().tables.services.get(w.s.defaultService.id)?.discardedAt).toBe(NOW);
    });

    it('CONSULTING-004 while the service has undiscarded non-canceled future meetings', async () => {
      const w = world();
      const meeting = w.meeting();
      const error = await serverCode(w.client.deleteConsultingService(w.s.defaultService.id), 'CONSULTING-004');
      expect(error.details).toMatchObject({ meetingIds: [meeting.id] });
      expect(w.sim.school().tables.services.get(w.s.defaultService.id)?.discardedAt).toBeNull();
    });

    it('a canceled future meeting does not block deletion', async () => {
      const w = world();
      w.meeting({ canceled: true });
      expect((await w.client.deleteConsultingService(w.s.defaultService.id)).discardedAt).toBe(NOW);
    });

    it('a meeting that has ended does not block deletion ("future" = not ended yet)', async () => {
      const w = world();
      w.meeting({ startedAt: NOW - 2 * HOUR, endedAt: NOW - HOUR });
      expect((await w.client.deleteConsultingService(w.s.defaultService.id)).discardedAt).toBe(NOW);
    });

    it('a meeting in progress blocks deletion', async () => {
      const w = world();
      w.meeting({ startedAt: NOW - HOUR, endedAt: NOW + HOUR });
      await serverCode(w.client.deleteConsultingService(w.s.defaultService.id), 'CONSULTING-004');
    });

    it('CONSULTING-001: not found (another school\'s, or already deleted)', async () => {
      const w = world();
      await serverCode(w.client.deleteConsultingService(w.other.service.id), 'CONSULTING-001');
      await w.client.deleteConsultingService(w.s.defaultService.id);
      await serverCode(w.client.deleteConsultingService(w.s.defaultService.id), 'CONSULTING-001');
    });
  });

  describe('AdminConsultingService.meetingCount(state:)', () => {
    const world = useWorld(target);

    it('counts meetings, filterable by state', async () => {
      const w = world();
      w.meeting();
      w.meeting({ attendeeIds: [w.s.alice.id] });
      w.meeting({ canceled: true, startedAt: NOW + 2 * DAY, endedAt: NOW + 2 * DAY + HOUR });
      const data = await w.send(
        `mutation($id: String!) { updateConsultingService(id: $id, input: {}) { consultingService { all: meetingCount available: meetingCount(state: "available") scheduled: meetingCount(state: "scheduled") canceled: meetingCount(state: "canceled") } } }`,
        { id: w.s.defaultService.id },
      );
      expect(data).toEqual({ updateConsultingService: { consultingService: { all: 3, available: 1, scheduled: 1, canceled: 1 } } });
    });
  });
}
