import { describe, expect, it } from 'vitest';
import { PayloadError } from '../../src/index.js';
import { service } from '../support/fixtures.js';
import { useScriptedAdminApi, testClient } from '../support/scripted-admin-api.js';

const api = useScriptedAdminApi();

describe('createConsultingService', () => {
  it('sends the input as $input and returns the created service', async () => {
    api.data({ createConsultingService: { consultingService: service({ publishedAt: '1790000000' }), errors: null } });
    const input = { name: 'Office hours', courseId: 'course-1', slug: 'office-hours', published: true, tags: ['math'] };
    const created = await testClient().createConsultingService(input);
    expect(api.last.query.startsWith('mutation CreateConsultingService')).toBe(true);
    expect(api.last.variables).toEqual({ input });
    expect(created).toMatchObject({ id: 'svc-1', slug: 'office-hours', publishedAt: 1_790_000_000, effectiveTimezone: 'Europe/Berlin' });
  });

  it('"Model-validation failure returns {consultingService: null, errors: [...]}" -> PayloadError with the messages', async () => {
    api.data({ createConsultingService: { consultingService: null, errors: ["Name can't be blank"] } });
    const error = await testClient().createConsultingService({ name: '', courseId: 'course-1' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PayloadError);
    expect(error).toMatchObject({ messages: ["Name can't be blank"], operation: 'createConsultingService' });
  });
});

describe('updateConsultingService', () => {
  it('sends id and only the provided keys (explicit null kept, to clear)', async () => {
    api.data({ updateConsultingService: { consultingService: service({ lecturerId: null }), errors: null } });
    await testClient().updateConsultingService('svc-1', { published: false, lecturerId: null });
    expect(api.last.variables).toEqual({ id: 'svc-1', input: { published: false, lecturerId: null } });
  });
});

describe('deleteConsultingService', () => {
  it('returns the discarded service with discardedAt set', async () => {
    api.data({ deleteConsultingService: { consultingService: service({ discardedAt: '1795000000' }), errors: null } });
    const discarded = await testClient().deleteConsultingService('svc-1');
    expect(api.last.variables).toEqual({ id: 'svc-1' });
    expect(discarded.discardedAt).toBe(1_795_000_000);
  });
});
