import { parse, type OperationDefinitionNode } from 'graphql';

/** One HTTP request as the fault server read it off the socket. */
export interface RawRequest {
  method: string;
  path: string;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  /** The body exactly as received. */
  body: string;
  /** The JSON body's `query` (empty when the body was not a GraphQL request). */
  query: string;
  variables: Record<string, unknown>;
  /** Root fields of the document's first operation (e.g. `['createCouponGrant']`). */
  fields: string[];
}

const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * Takes one complete request off the front of `buffer` (head plus a `Content-Length` or chunked
 * body), or returns undefined while more bytes are needed.
 */
export function takeRequest(buffer: Buffer): { request: RawRequest; rest: Buffer } | undefined {
  const headEnd = buffer.indexOf(HEAD_END);
  if (headEnd < 0) return undefined;
  const [requestLine = '', ...headerLines] = buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
  const [method = '', path = ''] = requestLine.split(' ');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const bodyStart = headEnd + HEAD_END.length;
  const body = headers['transfer-encoding']?.toLowerCase() === 'chunked' ? dechunk(buffer, bodyStart) : sized(buffer, bodyStart, Number(headers['content-length'] ?? 0));
  if (body === undefined) return undefined;
  const text = body.bytes.toString('utf8');
  return { request: { method, path, headers, body: text, ...graphqlParts(text) }, rest: buffer.subarray(body.end) };
}

function sized(buffer: Buffer, start: number, length: number): { bytes: Buffer; end: number } | undefined {
  if (buffer.length < start + length) return undefined;
  return { bytes: buffer.subarray(start, start + length), end: start + length };
}

function dechunk(buffer: Buffer, start: number): { bytes: Buffer; end: number } | undefined {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = Number.parseInt(buffer.subarray(at, lineEnd).toString('latin1'), 16);
    const dataStart = lineEnd + 2;
    if (buffer.length < dataStart + size + 2) return undefined;
    if (size === 0) return { bytes: Buffer.concat(parts), end: dataStart + 2 };
    parts.push(buffer.subarray(dataStart, dataStart + size));
    at = dataStart + size + 2;
  }
}

function graphqlParts(text: string): Pick<RawRequest, 'query' | 'variables' | 'fields'> {
  let json: { query?: unknown; variables?: unknown };
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    return { query: '', variables: {}, fields: [] };
  }
  const query = typeof json.query === 'string' ? json.query : '';
  const variables = json.variables !== null && typeof json.variables === 'object' ? (json.variables as Record<string, unknown>) : {};
  return { query, variables, fields: rootFields(query) };
}

/** Root field names of the first operation; a document that does not parse has none. */
function rootFields(query: string): string[] {
  try {
    const operation = parse(query).definitions.find((definition): definition is OperationDefinitionNode => definition.kind === 'OperationDefinition');
    return operation?.selectionSet.selections.flatMap((selection) => (selection.kind === 'Field' ? [selection.name.value] : [])) ?? [];
  } catch {
    return [];
  }
}

const REASONS: Record<number, string> = { 200: 'OK', 401: 'Unauthorized', 429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' };

/** Response headers as written on the wire: a list of values is sent as that many header lines. */
export type RawHeaders = Record<string, string | readonly string[]>;

/** The status line and headers of a response, ending with the blank line. Every response closes its connection. */
export function responseHead(status: number, headers: RawHeaders): string {
  const fields = Object.entries(headers).flatMap(([name, value]) => (typeof value === 'string' ? [value] : value).map((one) => `${name}: ${one}`));
  const lines = [`HTTP/1.1 ${status} ${REASONS[status] ?? 'Status'}`, ...fields, 'Connection: close'];
  return `${lines.join('\r\n')}\r\n\r\n`;
}
