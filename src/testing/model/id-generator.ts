/** Characters of generated coupon codes: upper-case letters and digits without look-alikes (0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * Deterministic source of identifiers (UUIDs), coupon codes, API keys and platform meeting ids.
 * The same seed yields the same sequence, so seeded schools and test runs are reproducible; the
 * model never calls `Math.random`.
 */
export class IdGenerator {
  private state: number;
  private counter = 0;

  /** @param seed any 32-bit integer; equal seeds give equal sequences. */
  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A version-4-shaped UUID, e.g. `3f2a9c1e-5b7d-4e0a-9c3f-1a2b3c4d5e6f`. */
  uuid(): string {
    const bytes = Array.from({ length: 16 }, () => this.nextByte());
    bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
    bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
    const hex = bytes.map((byte) => byte.toString(16).padStart(2, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  /** A readable coupon code of `length` characters (6 by the spec). */
  couponCode(length = 6): string {
    return this.pick(CODE_ALPHABET, length);
  }

  /** A live secret API key (`sk_live_` followed by 32 letters and digits). */
  apiKey(): string {
    return `sk_live_${this.pick(KEY_ALPHABET, 32)}`;
  }

  /** A sequential, prefixed id for things outside the admin API (platform meetings, events, payments). */
  sequential(prefix: string): string {
    this.counter += 1;
    return `${prefix}_${String(this.counter).padStart(6, '0')}`;
  }

  private pick(alphabet: string, length: number): string {
    let text = '';
    for (let i = 0; i < length; i += 1) text += alphabet[this.nextUint32() % alphabet.length] ?? '';
    return text;
  }

  private nextByte(): number {
    return this.nextUint32() & 0xff;
  }

  /** mulberry32: small, fast and good enough for unique-looking ids. */
  private nextUint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
}
