/**
 * Error codes (from Node, undici and the OS) that mean the connection was never established, so
 * the request surely did not reach the server. Anything else after sending started may have.
 */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * A TLS handshake that failed, so the request was never sent: fetch (undici) writes a request only
 * once the handshake has succeeded. The client refused the server's certificate (OpenSSL's X.509
 * verification codes as Node names them, `UNABLE_TO_GET_ISSUER_CERT_LOCALLY`, `CERT_HAS_EXPIRED`,
 * `SELF_SIGNED_CERT_IN_CHAIN`, ..., and `ERR_TLS_CERT_ALTNAME_INVALID`); the server's first
 * bytes were not TLS at all (`ERR_SSL_WRONG_VERSION_NUMBER` and
 * `ERR_SSL_PACKET_LENGTH_TOO_LONG`, a plain-HTTP server behind an `https://` URL: a server would
 * have to send unencrypted bytes after a completed handshake to cause them, which no TLS stack
 * does); the server refused the client's hello (protocol version), or a TLS
 * 1.2 handshake failed (no shared cipher, a client certificate required: OpenSSL 3.0 names it
 * `ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE`, 3.2 and later, as in Node 22 and 24,
 * `ERR_SSL_SSL/TLS_ALERT_HANDSHAKE_FAILURE`); or the client refused
 * the server's protocol. Left out,
 * so they count as "may have reached": TLS 1.3 alerts about a client certificate
 * (`ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED`, ...), which come after the client has finished its
 * side and may already have sent the request, and every other `ERR_SSL_*` code (a record that fails
 * to decrypt mid-answer). Rarer handshake refusals are left out too: a wrong "may have reached"
 * costs a retry, a wrong "never reached" could send a mutation twice.
 */
const TLS_HANDSHAKE =
  /^(ERR_TLS_CERT_ALTNAME_INVALID|UNABLE_TO_|CERT_|DEPTH_ZERO|SELF_SIGNED|INVALID_CA|ERR_SSL_(WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|UNSUPPORTED_PROTOCOL|TLSV1_ALERT_PROTOCOL_VERSION|SSLV3_ALERT_HANDSHAKE_FAILURE|SSL\/TLS_ALERT_HANDSHAKE_FAILURE)$)/;

const neverConnected = (code: string): boolean => NEVER_CONNECTED.has(code) || TLS_HANDSHAKE.test(code);

/**
 * True unless the failure surely happened before the request could reach the server. Unknown
 * failures count as "may have reached": a non-idempotent mutation is then not sent twice.
 */
export function mayHaveReachedServer(error: unknown): boolean {
  const codes = [...errorCodes(error, 0)];
  return !codes.some(neverConnected) && !failedToConnectInDeno(error, 0);
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
  return codes.find(neverConnected) ?? codes[0];
}

/**
 * What to check after a failure that never reached the server whose code is `code`, for messages
 * naming `url` (the option or variable holding the base URL): after a failed TLS handshake, the
 * scheme first (the commonest cause is an `https://` URL for a plain-HTTP server), then the
 * certificate; else the URL and the network.
 */
export function neverReachedRemedy(code: string | undefined, url: string): string {
  return code !== undefined && TLS_HANDSHAKE.test(code)
    ? `the TLS handshake failed: if the server speaks plain HTTP, use an http:// ${url}; else check its certificate`
    : `check ${url} and the network`;
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
