import { describe, expect, it } from 'vitest';
import { BodyTooLargeSignal, readBodyText } from '../../src/transport/read-body.js';

/** A response whose body arrives in the given chunks, noting whether it was cancelled. */
function chunked(chunks: readonly Uint8Array[], headers: Record<string, string> = {}): { response: Response; cancelled: () => boolean } {
  let cancelled = false;
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[next++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
    cancel() {
      cancelled = true;
    },
  });
  return { response: new Response(body, { headers }), cancelled: () => cancelled };
}

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('readBodyText: the body as text, never more than maxBytes buffered', () => {
  it('a body in one chunk', async () => {
    expect(await readBodyText(chunked([bytes('{"data":{"ok":"é€"}}')]).response, 1_000)).toBe('{"data":{"ok":"é€"}}');
  });

  it('a character split between chunks is decoded whole', async () => {
    const euro = bytes('€'); // 3 bytes
    const chunks = [bytes('{"x":"a'), euro.slice(0, 1), euro.slice(1, 2), new Uint8Array([...euro.slice(2), ...bytes('é"}')])];
    expect(await readBodyText(chunked(chunks).response, 1_000)).toBe('{"x":"a€é"}');
  });

  it('an empty chunk first, then the body', async () => {
    expect(await readBodyText(chunked([new Uint8Array(0), bytes('é'), bytes('!')]).response, 1_000)).toBe('é!');
  });

  it('no body, or an empty one: the empty string', async () => {
    expect(await readBodyText(new Response(null), 1_000)).toBe('');
    expect(await readBodyText(chunked([]).response, 1_000)).toBe('');
  });

  it('past maxBytes over several chunks: BodyTooLargeSignal, and the rest of the body is cancelled', async () => {
    const { response, cancelled } = chunked([bytes('x'.repeat(600)), bytes('y'.repeat(600)), bytes('z')]);
    await expect(readBodyText(response, 1_000)).rejects.toBeInstanceOf(BodyTooLargeSignal);
    expect(cancelled()).toBe(true);
  });

  it('a declared Content-Length past maxBytes: refused before anything is read', async () => {
    const { response, cancelled } = chunked([bytes('x')], { 'content-length': '5000' });
    await expect(readBodyText(response, 1_000)).rejects.toBeInstanceOf(BodyTooLargeSignal);
    expect(cancelled()).toBe(true);
  });
});
