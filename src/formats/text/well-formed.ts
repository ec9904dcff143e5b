/**
 * The ES2024 string methods, which the project's `es2023` lib does not declare. Optional because a
 * pre-ES2024 engine lacks them.
 */
interface WellFormedCapable {
  isWellFormed?: () => boolean;
  toWellFormed?: () => string;
}

/** An unpaired high surrogate, or an unpaired low surrogate (code units, no `u` flag on purpose). */
const LONE_SURROGATE_ALL =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** With the `u` flag a surrogate class matches only unpaired surrogates. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Reports whether `s` holds no unpaired UTF-16 surrogate, i.e. whether it is valid Unicode and
 * encodes to UTF-8 without a U+FFFD substitution.
 *
 * Uses the native `String.prototype.isWellFormed` (Node 20) and falls back to a regex on older
 * engines.
 *
 * @example isWellFormed("a\uD800b") === false; isWellFormed("😀") === true
 */
export function isWellFormed(s: string): boolean {
  const native = (s as unknown as WellFormedCapable).isWellFormed;
  if (typeof native === "function") return native.call(s);
  return !LONE_SURROGATE.test(s);
}

/**
 * Replaces every unpaired UTF-16 surrogate in `s` with U+FFFD, one for one
 * (docs/spec/formats.md §0, "lone surrogates"), so every value a codec writes or returns is valid
 * Unicode.
 *
 * Uses the native `String.prototype.toWellFormed` (Node 20) and falls back to a regex on older
 * engines. Returns `s` itself when it is already well formed.
 *
 * @example toWellFormed("a\uD800b") === "a\uFFFDb"
 */
export function toWellFormed(s: string): string {
  const native = (s as unknown as WellFormedCapable).toWellFormed;
  if (typeof native === "function") return native.call(s);
  return s.replace(LONE_SURROGATE_ALL, "\uFFFD");
}
