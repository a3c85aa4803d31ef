/** The path the client appends to the base URL: requests go to `${baseUrl}/admin/graphql`. */
export const ADMIN_ENDPOINT_PATH = '/admin/graphql';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Why a base URL cannot be used (a stable name; the client and the CLI word it for their readers). */
export type BaseUrlProblem =
  | { kind: 'missing' }
  | { kind: 'not_a_url' }
  | { kind: 'not_http'; protocol: string }
  | { kind: 'credentials' }
  | { kind: 'insecure_http' }
  /** The URL already ends with the endpoint path; `base` is the same URL without it. */
  | { kind: 'endpoint_path'; base: string };

/**
 * Checks a base URL and derives the endpoint from it, without throwing: either `{ endpoint }` or
 * `{ problem }`. A URL that already ends with `/admin/graphql` (as the mock server's banner and
 * browser address bars show it) is refused: the client would post to `/admin/graphql/admin/graphql`
 * and get a bare 404.
 *
 * @example
 * ```ts
 * adminEndpointOf('https://school.example/', false); // { endpoint: 'https://school.example/admin/graphql' }
 * adminEndpointOf('http://127.0.0.1:4010/admin/graphql', false); // { problem: { kind: 'endpoint_path', base: 'http://127.0.0.1:4010' } }
 * ```
 */
export function adminEndpointOf(baseUrl: unknown, allowInsecureHttp: boolean): { endpoint: string } | { problem: BaseUrlProblem } {
  if (typeof baseUrl !== 'string' || baseUrl.trim() === '') return { problem: { kind: 'missing' } };
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return { problem: { kind: 'not_a_url' } };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: { kind: 'not_http', protocol: url.protocol } };
  if (url.username !== '' || url.password !== '') return { problem: { kind: 'credentials' } };
  if (url.protocol === 'http:' && !allowInsecureHttp && !LOOPBACK_HOSTS.has(url.hostname)) return { problem: { kind: 'insecure_http' } };
  const path = url.pathname.replace(/\/+$/u, '');
  if (path.toLowerCase().endsWith(ADMIN_ENDPOINT_PATH)) return { problem: { kind: 'endpoint_path', base: `${url.origin}${path.slice(0, -ADMIN_ENDPOINT_PATH.length)}` } };
  // Joined, not concatenated: one flat string, which every client keeps (a concatenation keeps its pieces).
  return { endpoint: [url.origin, path, ADMIN_ENDPOINT_PATH].join('') };
}

/** The client's wording of a {@link BaseUrlProblem}: the reason, then the remedy (option names as in `AdminClientOptions`). */
export function baseUrlProblemText(problem: BaseUrlProblem): string {
  switch (problem.kind) {
    case 'missing':
      return 'baseUrl is required (e.g. https://school.example)';
    case 'not_a_url':
      return 'baseUrl is not a valid URL; pass the school\'s base URL, e.g. https://school.example';
    case 'not_http':
      return 'baseUrl must use https';
    case 'credentials':
      return 'baseUrl must not contain credentials';
    case 'insecure_http':
      return 'plain http would send the secret key unencrypted; use https, or set allowInsecureHttp: true for a trusted network';
    case 'endpoint_path':
      return `baseUrl ends with ${ADMIN_ENDPOINT_PATH}, the path the client adds itself; drop the path and pass ${problem.base}`;
  }
}
