import { isWellFormed } from "../../formats/text/index.ts";

/** UTF-8 byte count without encoding: the formats' primitive, one implementation for both layers. */
export { utf8ByteLength } from "../../formats/text/index.ts";

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

/**
 * True when `text` holds an unpaired UTF-16 surrogate (not representable in UTF-8; BAP/1 treats it
 * like invalid UTF-8, docs/spec/protocol.md §2 TypeScript notes).
 *
 * @example
 * hasLoneSurrogate("a\uD800") === true; hasLoneSurrogate("😀") === false;
 */
export function hasLoneSurrogate(text: string): boolean {
  return !isWellFormed(text);
}
