import { AdminApiError } from '../../errors/admin-api-error.js';
import { RateLimitError } from '../../errors/rate-limit-error.js';
import { formatDuration } from './duration-format.js';

/**
 * An SDK error as the command line reads it. Most SDK messages already read "Failed to ...:
 * reason. Remedy." in words a user of the command knows; a rate limit the client could not get
 * past names client options (maxRateLimitWaitMs) there, so it is worded from its fields instead.
 */
export function sdkErrorText(error: AdminApiError): string {
  if (error instanceof RateLimitError) {
    const kind = error.operationType === 'mutations' ? 'mutation' : 'query';
    const wait = formatDuration(Math.ceil(error.retryAfterMs / 1000) * 1000);
    return (
      `Failed to get past the server's ${kind} rate limit${error.limit === undefined ? '' : ` (${error.limit} per window)`}: it stayed exhausted and the server asks to wait ${wait}. ` +
      `Another client may be using the same key; run the command again in ${wait}.`
    );
  }
  return error.message;
}
