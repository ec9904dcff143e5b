/**
 * Counts the UTF-8 bytes of `text` without encoding it (no `Buffer`, portable). A lone surrogate
 * counts 3 bytes, as `TextEncoder` would encode it as U+FFFD.
 *
 * @example
 * utf8ByteLength("é") === 2; utf8ByteLength("😀") === 4;
 */
export function utf8ByteLength(text: string): number {
  const length = text.length;
  let bytes = length;
  for (let i = 0; i < length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) {
      bytes += 1;
    } else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        // A pair is 2 UTF-16 units and 4 UTF-8 bytes.
        bytes += 2;
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
 * Counts the Unicode code points of `text` (a lone surrogate counts one). Never allocates.
 *
 * @example
 * codePointLength("😀a") === 2; // while "😀a".length === 3
 */
export function codePointLength(text: string): number {
  const length = text.length;
  let count = length;
  for (let i = 0; i < length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** With the `u` flag a class of surrogates matches only unpaired ones. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * True when `text` holds an unpaired UTF-16 surrogate (not representable in UTF-8; BAP/1 treats it
 * like invalid UTF-8, spec §2 TypeScript notes).
 *
 * @example
 * hasLoneSurrogate("a\uD800") === true; hasLoneSurrogate("😀") === false;
 */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}
