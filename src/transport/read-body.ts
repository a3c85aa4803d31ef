/** The body was larger than allowed; reading stopped there. */
export class BodyTooLargeSignal extends Error {
  constructor() {
    super('response body too large');
  }
}

/**
 * Reads a response body as text, stopping with {@link BodyTooLargeSignal} past `maxBytes` so a
 * hostile or broken server cannot make the client buffer an unbounded body.
 */
export async function readBodyText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeSignal();
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeSignal();
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
