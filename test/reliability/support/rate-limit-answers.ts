import type { FaultAction, FaultStep } from './fault-server.js';
import { answerOk, json } from './operation-cases.js';
import type { RawRequest } from './raw-http.js';

/** The documented 429: headers plus a JSON body with `extensions.code` RATE_LIMIT_EXCEEDED. */
export function tooMany(headers: Record<string, string> = {}, extensions: Record<string, unknown> = {}): FaultAction {
  return json({ errors: [{ message: 'Rate limit exceeded', extensions: { code: 'RATE_LIMIT_EXCEEDED', operation_type: 'mutations', ...extensions } }] }, 429, headers);
}

/** The documented 429 asking for `seconds` of wait (`Retry-After` and `retry_after`). */
export function waitSeconds(seconds: number): FaultAction {
  return tooMany({ 'Retry-After': String(seconds) }, { retry_after: seconds });
}

/** The first `count` requests get `first`, the rest are answered normally. */
export function firstThen(count: number, first: FaultAction): FaultStep {
  let seen = 0;
  return (request: RawRequest) => {
    seen += 1;
    return seen <= count ? first : answerOk(request);
  };
}
