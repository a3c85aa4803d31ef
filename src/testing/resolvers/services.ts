import type {
  AdminConsultingServiceInput,
  AdminConsultingServiceUpdateInput,
} from '../../generated/graphql.js';
import { fail } from '../graphql/coded-error.js';
import type { ResolverContext } from '../graphql/resolver-context.js';
import { serviceView } from '../graphql/views.js';
import type { ServiceRecord } from '../model/records.js';
import { checkServiceReferences, serviceModelErrors, uniqueDerivedSlug } from './service-rules.js';

function rejected(errors: string[]) {
  return { consultingService: null, errors };
}

function found(ctx: ResolverContext, service: ServiceRecord) {
  return { consultingService: serviceView(ctx.school, service), errors: null };
}

/** `createConsultingService`: a `consulting` service targeting its course. */
export function createConsultingService(args: { input: AdminConsultingServiceInput }, ctx: ResolverContext) {
  const { school, now, ids } = ctx;
  const { input } = args;
  if (!school.tables.courses.has(input.courseId)) {
    fail('CONSULTING-002', 'courseId is not a course of this school', { courseId: input.courseId });
  }
  checkServiceReferences(school, input);
  const explicitSlug = input.slug?.trim() ?? '';
  const slug = explicitSlug || uniqueDerivedSlug(school, input.name);
  const backgroundColor = input.backgroundColor ?? null;
  const errors = serviceModelErrors(school, { name: input.name, slug, slugExplicit: explicitSlug !== '', backgroundColor });
  if (errors.length > 0) return rejected(errors);
  const published = input.published === true;
  const service: ServiceRecord = {
    id: ids.uuid(),
    name: input.name.trim(),
    slug,
    description: input.description ?? null,
    published,
    publishedAt: published ? now : null,
    settings: { tags: [...(input.tags ?? [])] },
    backgroundColor,
    ratingFormId: input.ratingFormId ?? null,
    serviceType: 'consulting',
    targetId: input.courseId,
    lecturerId: input.lecturerId ?? null,
    discardedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  school.tables.services.set(service.id, service);
  return found(ctx, service);
}

/**
 * `updateConsultingService`: only provided keys apply; explicit null clears `lecturerId`,
 * `ratingFormId` and `backgroundColor` and leaves every other field unchanged.
 */
export function updateConsultingService(
  args: { id: string; input: AdminConsultingServiceUpdateInput },
  ctx: ResolverContext,
) {
  const { school, now } = ctx;
  const { input } = args;
  const service = school.liveService(args.id);
  if (!service) fail('CONSULTING-001', 'consulting service not found', { serviceId: args.id });
  checkServiceReferences(school, input);
  const name = input.name ?? service.name;
  const explicitSlug = input.slug?.trim() ?? '';
  // A blank slug is derived from the name, as on create.
  const slug = input.slug === undefined || input.slug === null ? service.slug : explicitSlug || uniqueDerivedSlug(school, name, service.id);
  const backgroundColor = input.backgroundColor === undefined ? service.backgroundColor : input.backgroundColor;
  const errors = serviceModelErrors(
    school,
    { name, slug, slugExplicit: explicitSlug !== '' && explicitSlug !== service.slug, backgroundColor },
    service.id,
  );
  if (errors.length > 0) return rejected(errors);
  service.name = name.trim();
  service.slug = slug;
  service.backgroundColor = backgroundColor;
  if (input.description !== undefined && input.description !== null) service.description = input.description;
  if (input.lecturerId !== undefined) service.lecturerId = input.lecturerId;
  if (input.ratingFormId !== undefined) service.ratingFormId = input.ratingFormId;
  if (input.tags !== undefined && input.tags !== null) service.settings.tags = [...input.tags];
  if (input.published === true) {
    service.published = true;
    service.publishedAt ??= now;
  } else if (input.published === false) {
    service.published = false;
  }
  service.updatedAt = now;
  return found(ctx, service);
}

/**
 * `deleteConsultingService`: soft delete, refused while the service has undiscarded, non-canceled
 * meetings that have not ended yet ("future" meetings, see docs/simulator.md).
 */
export function deleteConsultingService(args: { id: string }, ctx: ResolverContext) {
  const { school, now } = ctx;
  const service = school.liveService(args.id);
  if (!service) fail('CONSULTING-001', 'consulting service not found', { serviceId: args.id });
  const blocking = [...school.tables.meetings.values()].filter(
    (meeting) =>
      meeting.serviceId === service.id && meeting.discardedAt === null && meeting.state !== 'canceled' && meeting.endedAt > now,
  );
  if (blocking.length > 0) {
    fail('CONSULTING-004', 'the service has undiscarded non-canceled future meetings; cancel them first', {
      serviceId: service.id,
      meetingIds: blocking.map((meeting) => meeting.id),
    });
  }
  service.discardedAt = now;
  service.updatedAt = now;
  return found(ctx, service);
}
