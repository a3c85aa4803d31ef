import type { RatingInput } from '../client/types/types.js';
import { localCodedError, type LocalContext } from './local-errors.js';

/**
 * Rating rules the client can check without knowing the service's mode: a given score must be
 * 0.5 to 10 in steps of 0.5 (MEETING-014); score and answers together match no mode (MEETING-013).
 */
export function checkRating(context: LocalContext, rating: RatingInput): void {
  const { score, answers } = rating;
  // Only numbers are judged as scores; NaN, ±Infinity and non-numbers are refused by the
  // schema-driven check of the variables (InvalidInputError naming `score`).
  if (typeof score === 'number' && Number.isFinite(score) && !isValidScore(score)) throw localCodedError(context, 'MEETING-014');
  if (score !== undefined && score !== null && answers !== undefined && answers !== null) {
    throw localCodedError(context, 'MEETING-013');
  }
}

function isValidScore(score: number): boolean {
  return score >= 0.5 && score <= 10 && Number.isInteger(score * 2);
}
