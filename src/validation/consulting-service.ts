import { localCodedError, type LocalContext } from './local-errors.js';

const SLUG_PATTERN = /^[a-z0-9-]+$/;

/**
 * Slugs must match `^[a-z0-9-]+$` (CONSULTING-003); a blank slug is allowed on create and update
 * (the server derives it from the name).
 */
export function checkSlug(context: LocalContext, slug: string | null | undefined): void {
  if (typeof slug === 'string' && slug.trim() !== '' && !SLUG_PATTERN.test(slug)) {
    throw localCodedError(context, 'CONSULTING-003');
  }
}
