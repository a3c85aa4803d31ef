import { fail } from '../graphql/coded-error.js';
import type { SchoolModel } from '../model/school.js';

/** The spec's slug pattern. */
export const SLUG_PATTERN = /^[a-z0-9-]+$/;
const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** Payload messages of service model validation (the spec gives no texts; these are the simulator's). */
export const SERVICE_MESSAGES = {
  /** A blank name (create or update). */
  nameBlank: "Name can't be blank",
  /** The slug is used by another service of the school. */
  slugTaken: 'Slug has already been taken',
  /** No slug given and none can be derived from the name. */
  slugUnderivable: 'Slug cannot be derived from the name; send a slug',
  /** `backgroundColor` is not a hex color. */
  colorInvalid: 'Background color must be a hex color such as #1A2B3C',
} as const;

/** Derives a slug from a display name ("Career Coaching 1:1" -> "career-coaching-1-1"). */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** True when a live service other than `exceptId` uses the slug. */
export function slugTaken(school: SchoolModel, slug: string, exceptId?: string): boolean {
  for (const service of school.tables.services.values()) {
    if (service.id !== exceptId && service.discardedAt === null && service.slug === slug) return true;
  }
  return false;
}

/** A free slug derived from the name: `base`, else `base-2`, `base-3`, ... */
export function uniqueDerivedSlug(school: SchoolModel, name: string, exceptId?: string): string {
  const base = slugify(name);
  if (base === '') return '';
  let candidate = base;
  for (let n = 2; slugTaken(school, candidate, exceptId); n += 1) candidate = `${base}-${n}`;
  return candidate;
}

/** The references of a service input that coded errors guard. */
export interface ServiceReferences {
  slug?: string | null | undefined;
  lecturerId?: string | null | undefined;
  ratingFormId?: string | null | undefined;
}

/** Raises CONSULTING-003, -005 and -006 for an invalid slug or foreign lecturer and form ids. */
export function checkServiceReferences(school: SchoolModel, input: ServiceReferences): void {
  const slug = input.slug?.trim();
  if (slug && !SLUG_PATTERN.test(slug)) {
    fail('CONSULTING-003', 'slug must match ^[a-z0-9-]+$', { slug, pattern: '^[a-z0-9-]+$' });
  }
  if (input.lecturerId && !school.tables.lecturers.has(input.lecturerId)) {
    fail('CONSULTING-005', 'lecturerId is not a lecturer of this school', { lecturerId: input.lecturerId });
  }
  if (input.ratingFormId && !school.tables.forms.has(input.ratingFormId)) {
    fail('CONSULTING-006', 'ratingFormId is not a form of this school', { ratingFormId: input.ratingFormId });
  }
}

/** Model-validation messages of a service's resulting name, slug and colour. */
export function serviceModelErrors(
  school: SchoolModel,
  fields: { name: string; slug: string; slugExplicit: boolean; backgroundColor: string | null },
  exceptId?: string,
): string[] {
  const errors: string[] = [];
  if (fields.name.trim() === '') errors.push(SERVICE_MESSAGES.nameBlank);
  else if (fields.slug === '') errors.push(SERVICE_MESSAGES.slugUnderivable);
  if (fields.slugExplicit && slugTaken(school, fields.slug, exceptId)) errors.push(SERVICE_MESSAGES.slugTaken);
  if (fields.backgroundColor !== null && !HEX_COLOR.test(fields.backgroundColor)) errors.push(SERVICE_MESSAGES.colorInvalid);
  return errors;
}
