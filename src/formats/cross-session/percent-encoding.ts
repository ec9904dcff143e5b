import { isWellFormed } from "../text/index.ts";
import { CrossSessionCodecError, type CrossSessionCodecErrorCode } from "./codec-error.ts";

/** Every code point outside the safe set `A–Z a–z 0–9 : _ / . \ -`. */
const UNSAFE = /[^A-Za-z0-9:_/.\\-]/gu;
const ADDRESS_GRAMMAR = /^[A-Za-z0-9%:_/.\\-]+$/;
const SCOPE_GRAMMAR = /^[A-Za-z0-9%:_/.\\-]*$/;
const HEX = "0123456789ABCDEF";
const UTF8 = new TextEncoder();
// ignoreBOM: a leading %EF%BB%BF must survive decoding, or rule 4 would accept a dropped BOM.
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function percentEncodeCodePoint(cp: string): string {
  let out = "";
  for (const byte of UTF8.encode(cp)) {
    out += `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
  }
  return out;
}

function percentEncode(raw: unknown, code: CrossSessionCodecErrorCode, what: string): string {
  if (typeof raw !== "string" || !isWellFormed(raw)) {
    throw new CrossSessionCodecError(code, `${what} must be a well-formed string`);
  }
  return raw.replace(UNSAFE, percentEncodeCodePoint);
}

function hexValue(unit: number): number {
  if (unit >= 0x30 && unit <= 0x39) return unit - 0x30;
  if (unit >= 0x41 && unit <= 0x46) return unit - 0x37;
  return -1;
}

/** Rules 2–4 of docs/spec/cross-session.md §4 on a string that already passed rule 1's grammar. */
function decodeCanonical(encoded: string): string | undefined {
  if (!encoded.includes("%")) return encoded;
  const bytes = new Uint8Array(encoded.length);
  let n = 0;
  for (let i = 0; i < encoded.length; i++) {
    const unit = encoded.charCodeAt(i);
    if (unit !== 0x25) {
      bytes[n++] = unit;
      continue;
    }
    const hi = hexValue(encoded.charCodeAt(i + 1));
    const lo = hexValue(encoded.charCodeAt(i + 2));
    if (hi < 0 || lo < 0) return undefined;
    bytes[n++] = (hi << 4) | lo;
    i += 2;
  }
  let decoded: string;
  try {
    decoded = STRICT_UTF8.decode(bytes.subarray(0, n));
  } catch {
    return undefined;
  }
  return decoded.replace(UNSAFE, percentEncodeCodePoint) === encoded ? decoded : undefined;
}

/**
 * Percent-encodes a raw peer address: every code point outside `A–Z a–z 0–9 : _ / . \ -` becomes
 * its UTF-8 bytes as `%XX` (upper-case hex); `%` itself is encoded. `""` → `""`.
 * @throws CrossSessionCodecError `cross_session.invalid_from` on a non-string or a string with an
 *   unpaired surrogate.
 * Example: `encodePeerAddress("uds:/run/zoë #2.sock")` is `"uds:/run/zo%C3%AB%20%232.sock"`.
 */
export function encodePeerAddress(raw: string): string {
  return percentEncode(raw, "cross_session.invalid_from", "peer address");
}

/**
 * True iff `address` is a non-empty address in the exact spelling {@link encodePeerAddress} produces:
 * CC's `from` grammar, every `%` an upper-case triplet, valid UTF-8, and no needless escape.
 * Never throws. Example: `isCanonicalPeerAddress("uds:/a%2F")` is `false` (`/` needs no escape).
 */
export function isCanonicalPeerAddress(address: string): boolean {
  return (
    typeof address === "string" &&
    ADDRESS_GRAMMAR.test(address) &&
    decodeCanonical(address) !== undefined
  );
}

/**
 * Percent-encodes a raw scope for the `from-scope` attribute (same algorithm as
 * {@link encodePeerAddress}). `""` → `""`.
 * @throws CrossSessionCodecError `cross_session.invalid_from_scope` on a non-string or a string
 *   with an unpaired surrogate.
 * Example: `encodeScopeAttribute("acme/ops team·α")` is `"acme/ops%20team%C2%B7%CE%B1"`.
 */
export function encodeScopeAttribute(rawScope: string): string {
  return percentEncode(rawScope, "cross_session.invalid_from_scope", "scope");
}

/**
 * Inverse of {@link encodeScopeAttribute}: the raw scope, or `undefined` when `encoded` is not a
 * string in canonical percent-encoded UTF-8 (lower-case hex, needless escapes, bad UTF-8). The empty
 * scope is valid. Never throws. Example: `decodeScopeAttribute("%E2%82%AC")` is `"€"`.
 */
export function decodeScopeAttribute(encoded: string): string | undefined {
  if (typeof encoded !== "string" || !SCOPE_GRAMMAR.test(encoded)) return undefined;
  return decodeCanonical(encoded);
}
