/** A server's sentence without its final full stops, so the SDK's own sentence can follow it. */
export function withoutFinalStop(text: string): string {
  // A loop, not /\.+$/: that pattern backtracks quadratically over a long run of dots mid-text.
  let end = text.length;
  while (end > 0 && text[end - 1] === '.') end -= 1;
  return text.slice(0, end);
}
