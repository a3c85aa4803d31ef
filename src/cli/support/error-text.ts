import { DEFAULTS } from '../../client/options/options.js';
import { AdminApiError } from '../../errors/admin-api-error.js';
import { InvalidResponseError } from '../../errors/invalid-response-error.js';
import { NetworkError } from '../../errors/network-error.js';
import { RateLimitError } from '../../errors/rate-limit-error.js';
import { RedirectError } from '../../errors/redirect-error.js';
import { describeNetworkFailure, neverReachedRemedy } from '../../transport/network-failure.js';
import { formatDuration } from './duration-format.js';

/**
 * An SDK error as the command line reads it. Most SDK messages already read "Failed to ...:
 * reason. Remedy." in words a user of the command knows; those whose remedy names a client
 * option (baseUrl, maxResponseBytes, maxRateLimitWaitMs) are worded from their class and fields
 * instead, naming what the user of the command set: ADMIN_API_URL. The SDK's own messages stay as
 * they are for library users.
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
  if (error instanceof NetworkError && !error.mayHaveReachedServer) {
    return `Failed to reach the server at ADMIN_API_URL: ${describeNetworkFailure(error.cause, error.origin ?? 'ADMIN_API_URL')} before a response arrived. The request never reached it; ${neverReachedRemedy(error.networkCode, 'ADMIN_API_URL')}.`;
  }
  if (error instanceof RedirectError) {
    const target = error.redirectOrigin === undefined ? 'elsewhere' : `to ${error.redirectOrigin}`;
    return (
      `Failed to use the server at ADMIN_API_URL: it answered HTTP ${error.status ?? 0}, a redirect ${target}, which school-admin never follows (the key goes only to ADMIN_API_URL). ` +
      "The server may have executed the request before redirecting; check before repeating it, and set ADMIN_API_URL to the API's final address."
    );
  }
  if (error instanceof InvalidResponseError && error.problem === 'too_large') {
    return `Failed to read the server's answer: it was larger than school-admin accepts (${DEFAULTS.maxResponseBytes / 1024 / 1024} MiB, HTTP ${error.status ?? 0}). The request reached the server; check ADMIN_API_URL points at the admin API, and check before repeating it.`;
  }
  return error.message;
}
