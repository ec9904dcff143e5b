/** The ES2024 method, which the project's `es2023` lib does not declare. */
interface WellFormedCapable {
  toWellFormed?: () => string;
}

/** An unpaired high surrogate, or an unpaired low surrogate (code units, no `u` flag on purpose). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Replaces every unpaired UTF-16 surrogate in `s` with U+FFFD, one for one (spec §0, "lone
 * surrogates"), so every value this codec writes or returns is valid Unicode.
 *
 * Uses the native `String.prototype.toWellFormed` (Node 20) and falls back to a regex on older
 * engines. Returns `s` itself when it is already well formed.
 *
 * @example toWellFormed("a\uD800b") === "a\uFFFDb"
 */
export function toWellFormed(s: string): string {
  const native = (s as unknown as WellFormedCapable).toWellFormed;
  if (typeof native === "function") return native.call(s);
  return s.replace(LONE_SURROGATE, "\uFFFD");
}
