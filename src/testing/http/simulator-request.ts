/** A request as any transport hands it to {@link Simulator.handle}. */
export interface SimulatorRequest {
  /** The HTTP method (only `POST` reaches the admin API). */
  method: string;
  /** The full URL (`http://host/admin/graphql`); give this or `path`. */
  url?: string;
  /** The path (`/admin/graphql`, a query string is ignored); give this or `url`. */
  path?: string;
  /** The request headers (names matched case-insensitively). */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The raw request body (a GraphQL request as JSON). */
  body: string;
}

/** The simulator's answer, for any transport to send. */
export interface SimulatorResponse {
  /** The HTTP status. */
  status: number;
  /** The response headers (e.g. `Content-Type`, and `Retry-After` with a 429). */
  headers: Record<string, string>;
  /** The response body (JSON). */
  body: string;
}

/** The request's path without query string. */
export function requestPath(request: SimulatorRequest): string {
  if (request.path !== undefined) return request.path.split('?')[0] ?? '';
  if (request.url !== undefined) return new URL(request.url, 'http://localhost').pathname;
  return '';
}

/** A header's value, looked up case-insensitively; the first value of a repeated header. */
export function headerValue(headers: SimulatorRequest['headers'], name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}
