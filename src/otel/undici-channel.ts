/** The diagnostics channel on which undici (Node's `fetch`) announces each request it creates. */
const REQUEST_CREATED = 'undici:request:create';

/**
 * Whether an instrumentation of Node's `fetch` will carry the trace context of each request
 * itself: something listens to undici's request channel (`@opentelemetry/instrumentation-undici`,
 * other APM agents). Its fetch span is then the child of the attempt's span, and it writes
 * `traceparent` from it; were the SDK to write one too, the releases of the undici instrumentation
 * up to 0.34 append a second `traceparent` rather than replace it, and the server, reading the two
 * as one malformed value, would drop the parent. Only in Node: Bun's and Deno's `fetch` announce
 * nothing there, so there the SDK always writes the headers. Looked up once; read per request.
 */
export function fetchCarriesContext(): () => boolean {
  const process = (globalThis as { process?: NodeJS.Process }).process;
  const versions = process?.versions as Record<string, string | undefined> | undefined;
  if (typeof versions?.['node'] !== 'string' || versions['bun'] !== undefined || versions['deno'] !== undefined) return () => false;
  const channels = process?.getBuiltinModule?.('node:diagnostics_channel') as typeof import('node:diagnostics_channel') | undefined;
  if (channels === undefined) return () => false;
  const created = channels.channel(REQUEST_CREATED);
  return () => created.hasSubscribers;
}
