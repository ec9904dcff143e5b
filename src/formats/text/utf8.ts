const REPLACEMENT = 0xfffd;
/** Code units converted to a string per `String.fromCharCode` call (well below engine arg limits). */
const CHUNK = 4096;

/**
 * The UTF-8 byte length of a string: what `Buffer.byteLength(s, "utf8")` returns, without `node:`.
 * An unpaired surrogate counts 3 bytes (the U+FFFD it is encoded as).
 *
 * @example utf8ByteLength("€") === 3; utf8ByteLength("😀") === 4
 */
export function utf8ByteLength(s: string): number {
  const n = s.length;
  let bytes = n;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) {
      bytes += 1;
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 2; // two code units, four bytes
        i++;
      } else {
        bytes += 2;
      }
    } else {
      bytes += 2;
    }
  }
  return bytes;
}

/**
 * Length in bytes of the well-formed UTF-8 sequence starting at `i`, or 0 when the byte at `i`
 * does not start one (Unicode Table 3-7: no overlongs, no surrogates, nothing above U+10FFFF, no
 * truncated sequence).
 */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const n = bytes.length;
  const b0 = bytes[i] as number;
  if (b0 < 0x80) return 1;
  if (b0 < 0xc2) return 0;
  if (b0 < 0xe0) {
    return i + 1 < n && isContinuation(bytes[i + 1] as number) ? 2 : 0;
  }
  if (b0 < 0xf0) {
    if (i + 2 >= n) return 0;
    const b1 = bytes[i + 1] as number;
    const lo = b0 === 0xe0 ? 0xa0 : 0x80;
    const hi = b0 === 0xed ? 0x9f : 0xbf;
    if (b1 < lo || b1 > hi) return 0;
    return isContinuation(bytes[i + 2] as number) ? 3 : 0;
  }
  if (b0 < 0xf5) {
    if (i + 3 >= n) return 0;
    const b1 = bytes[i + 1] as number;
    const lo = b0 === 0xf0 ? 0x90 : 0x80;
    const hi = b0 === 0xf4 ? 0x8f : 0xbf;
    if (b1 < lo || b1 > hi) return 0;
    return isContinuation(bytes[i + 2] as number) && isContinuation(bytes[i + 3] as number) ? 4 : 0;
  }
  return 0;
}

function isContinuation(b: number): boolean {
  return (b & 0xc0) === 0x80;
}

/**
 * Reports whether `bytes` is entirely well-formed UTF-8 (Unicode Table 3-7).
 *
 * @example isWellFormedUtf8(new Uint8Array([0xc0, 0x80])) === false
 */
export function isWellFormedUtf8(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; ) {
    const len = sequenceLength(bytes, i);
    if (len === 0) return false;
    i += len;
  }
  return true;
}

/**
 * Decodes UTF-8 bytes with Go `strings.ToValidUTF8(s, "\uFFFD")` semantics
 * (docs/spec/formats.md §0): a byte that does not start a well-formed sequence is consumed alone,
 * and each RUN of such bytes becomes ONE U+FFFD. A well-formed sequence (an encoded U+FFFD
 * included) ends a run. This is not what `TextDecoder` does (one U+FFFD per maximal subpart).
 *
 * @example repairUtf8(new Uint8Array([0x61, 0xc0, 0x80, 0x62])) === "a\uFFFDb"
 */
export function repairUtf8(bytes: Uint8Array): string {
  const units = new Uint16Array(CHUNK + 2);
  let out = "";
  let u = 0;
  let inRun = false;
  for (let i = 0; i < bytes.length; ) {
    if (u >= CHUNK) {
      out += String.fromCharCode.apply(null, units.subarray(0, u) as unknown as number[]);
      u = 0;
    }
    const len = sequenceLength(bytes, i);
    if (len === 0) {
      if (!inRun) units[u++] = REPLACEMENT;
      inRun = true;
      i++;
      continue;
    }
    inRun = false;
    const b0 = bytes[i] as number;
    if (len === 1) {
      units[u++] = b0;
    } else if (len === 2) {
      units[u++] = ((b0 & 0x1f) << 6) | ((bytes[i + 1] as number) & 0x3f);
    } else if (len === 3) {
      units[u++] =
        ((b0 & 0x0f) << 12) |
        (((bytes[i + 1] as number) & 0x3f) << 6) |
        ((bytes[i + 2] as number) & 0x3f);
    } else {
      const cp =
        (((b0 & 0x07) << 18) |
          (((bytes[i + 1] as number) & 0x3f) << 12) |
          (((bytes[i + 2] as number) & 0x3f) << 6) |
          ((bytes[i + 3] as number) & 0x3f)) -
        0x10000;
      units[u++] = 0xd800 | (cp >> 10);
      units[u++] = 0xdc00 | (cp & 0x3ff);
    }
    i += len;
  }
  if (u > 0) out += String.fromCharCode.apply(null, units.subarray(0, u) as unknown as number[]);
  return out;
}
