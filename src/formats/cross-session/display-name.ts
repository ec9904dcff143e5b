import { indexAfterCodePoints } from "../text/index.ts";

const ATTRIBUTE_BREAKERS = /["<>]/g;
const INVISIBLE = /[\p{Cf}\p{Cc}\p{Cs}\p{Zl}\p{Zp}]/gu;
const MAX_NAME_CODE_POINTS = 64;

/**
 * Canonical display name for `from-name` and `from-plugin`: deletes `"`, `<`, `>`, then every
 * format, control, lone-surrogate, line- and paragraph-separator code point; trims; caps at 64 code
 * points plus `…` (65 in all). `""` (also for a non-string) means "omit the attribute". Idempotent;
 * no entity escaping. Example: `canonicalPeerDisplayName(' Rita "R" <qa> ')` is `"Rita R qa"`.
 */
export function canonicalPeerDisplayName(raw: string): string {
  if (typeof raw !== "string") return "";
  const cleaned = raw.replace(ATTRIBUTE_BREAKERS, "").replace(INVISIBLE, "").trim();
  // More than 64 UTF-16 units is necessary (not sufficient) for more than 64 code points.
  if (cleaned.length <= MAX_NAME_CODE_POINTS) return cleaned;
  const end = indexAfterCodePoints(cleaned, MAX_NAME_CODE_POINTS);
  return end === -1 ? cleaned : `${cleaned.slice(0, end)}\u2026`;
}
