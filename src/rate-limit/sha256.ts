/**
 * SHA-256's constants (FIPS 180-4): the initial hash value (the first 32 bits of the fractional
 * parts of the square roots of the first 8 primes) and the round constants (the same for the cube
 * roots of the first 64 primes). Computed on first use, which is smaller than spelling them out.
 */
let constants: { h0: Uint32Array; k: Uint32Array } | undefined;

function sha256Constants(): { h0: Uint32Array; k: Uint32Array } {
  if (constants !== undefined) return constants;
  const h0 = new Uint32Array(8);
  const k = new Uint32Array(64);
  const fraction = (value: number): number => ((value - Math.floor(value)) * 2 ** 32) >>> 0;
  for (let candidate = 2, found = 0; found < 64; candidate += 1) {
    let prime = true;
    for (let divisor = 2; divisor * divisor <= candidate; divisor += 1) if (candidate % divisor === 0) prime = false;
    if (!prime) continue;
    if (found < 8) h0[found] = fraction(Math.sqrt(candidate));
    k[found] = fraction(Math.cbrt(candidate));
    found += 1;
  }
  constants = { h0, k };
  return constants;
}

/**
 * The SHA-256 digest of a text's UTF-8 bytes, as 64 hex digits (FIPS 180-4). Plain JavaScript and
 * synchronous, so bucket names are the same in every runtime: workerd without `nodejs_compat`
 * has no node:crypto, and Web Crypto's digest is asynchronous.
 *
 * @example
 * ```ts
 * sha256Hex('abc'); // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 * ```
 */
export function sha256Hex(text: string): string {
  const { h0, k } = sha256Constants();
  const bytes = new TextEncoder().encode(text);
  const length = bytes.length;
  // Big-endian words of the message, a 1 bit, zeros and the length in bits, filling whole 16-word blocks.
  const words = new Uint32Array(((length + 72) >> 6) << 4);
  for (let i = 0; i < length; i += 1) words[i >> 2]! |= bytes[i]! << (24 - (i & 3) * 8);
  words[length >> 2]! |= 0x80 << (24 - (length & 3) * 8);
  words[words.length - 2] = length / 2 ** 29;
  words[words.length - 1] = length << 3;

  const hash = h0.slice();
  const w = new Uint32Array(64);
  const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));
  for (let block = 0; block < words.length; block += 16) {
    // v holds the working variables a..h; a Uint32Array keeps every sum modulo 2^32.
    const v = hash.slice();
    for (let t = 0; t < 64; t += 1) {
      if (t < 16) w[t] = words[block + t]!;
      else {
        const x = w[t - 15]!;
        const y = w[t - 2]!;
        w[t] = (rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3)) + w[t - 7]! + (rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10)) + w[t - 16]!;
      }
      const [a, b, c, , e, f, g, h] = v as unknown as number[] as [number, number, number, number, number, number, number, number];
      const t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[t]! + w[t]!;
      const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      v.copyWithin(1, 0, 7); // h = g, g = f, ..., e = d, ..., b = a
      v[4]! += t1;
      v[0] = t1 + t2;
    }
    hash.forEach((value, i) => (hash[i] = value + v[i]!));
  }
  return Array.from(hash, (word) => word.toString(16).padStart(8, '0')).join('');
}
