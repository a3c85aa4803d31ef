/**
 * Error codes (from Node, undici and the OS) that mean the connection was never established, so
 * the request surely did not reach the server. Anything else after sending started may have.
 */
const NEVER_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

/**
 * True unless the failure surely happened before the request could reach the server. Unknown
 * failures count as "may have reached": a non-idempotent mutation is then not sent twice.
 */
export function mayHaveReachedServer(error: unknown): boolean {
  const codes = [...errorCodes(error, 0)];
  return !codes.some((code) => NEVER_CONNECTED.has(code)) && !failedToConnectInDeno(error, 0);
}

/**
 * Deno's fetch gives no error code: a connection that could not be made (refused, DNS, TLS
 * handshake) throws `TypeError: fetch failed` whose cause says "client error (Connect)", the
 * phase of its HTTP client before any byte of the request is written.
 */
const DENO_CONNECT_PHASE = 'client error (Connect)';

function failedToConnectInDeno(error: unknown, depth: number): boolean {
  if (depth > 5 || error === null || typeof error !== 'object') return false;
  const { message, cause } = error as { message?: unknown; cause?: unknown };
  return (typeof message === 'string' && message.includes(DENO_CONNECT_PHASE)) || failedToConnectInDeno(cause, depth + 1);
}

/** A short, secret-free description of a network failure (its codes), for messages. */
export function describeNetworkFailure(error: unknown): string {
  const codes = [...new Set(errorCodes(error, 0))];
  return codes.length > 0 ? `the connection failed (${codes.join(', ')})` : 'the connection failed';
}

function* errorCodes(error: unknown, depth: number): Generator<string> {
  if (depth > 5 || error === null || typeof error !== 'object') return;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string') yield code;
  yield* errorCodes(cause, depth + 1);
  // Happy-eyeballs connection attempts fail with an AggregateError of one error per address.
  if (Array.isArray(errors)) for (const item of errors) yield* errorCodes(item, depth + 1);
}
