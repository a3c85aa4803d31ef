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

/**
 * The code that names a network failure: the first one that means the connection was never
 * established, else the first code found (outer error first); undefined when there is none (Deno).
 */
export function networkFailureCode(error: unknown): string | undefined {
  const codes = [...errorCodes(error, 0)];
  return codes.find((code) => NEVER_CONNECTED.has(code)) ?? codes[0];
}

/** A short, secret-free description of a network failure (where to, its codes), for messages. */
export function describeNetworkFailure(error: unknown, origin: string): string {
  const codes = [...new Set(errorCodes(error, 0))];
  return `the connection to ${origin} failed${codes.length > 0 ? ` (${codes.join(', ')})` : ''}`;
}

function* errorCodes(error: unknown, depth: number): Generator<string> {
  if (depth > 5 || error === null || typeof error !== 'object') return;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string') yield code;
  yield* errorCodes(cause, depth + 1);
  // Happy-eyeballs connection attempts fail with an AggregateError of one error per address.
  if (Array.isArray(errors)) for (const item of errors) yield* errorCodes(item, depth + 1);
}
