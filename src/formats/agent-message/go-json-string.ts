/** Characters Go's HTML-safe encoder escapes that `JSON.stringify` leaves raw. */
const HTML_UNSAFE = /[<>&\u2028\u2029]/g;
const HAS_HTML_UNSAFE = /[<>&\u2028\u2029]/;

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

function escapeHtml(ch: string): string {
  return HTML_ESCAPES[ch] ?? ch;
}

/**
 * Encodes a well-formed string as a JSON string literal exactly as Go ≥ 1.22 `encoding/json` does
 * with HTML escaping on (docs/spec/formats.md §3.3): `"` `\` and C0 controls as `JSON.stringify`
 * writes them (`\n`, `\b`, `\u001b`, lower-case hex), `<` `>` `&` U+2028 U+2029 as `\u003c`
 * `\u003e` `\u0026` `\u2028` `\u2029`, everything else (U+007F, C1, non-ASCII) raw.
 *
 * The caller must pass a well-formed string: `JSON.stringify` would write a lone surrogate as an
 * escape where Go writes U+FFFD.
 *
 * @example goJsonString('a<"b">') === '"a\\u003c\\"b\\"\\u003e"'
 */
export function goJsonString(s: string): string {
  const json = JSON.stringify(s);
  return HAS_HTML_UNSAFE.test(json) ? json.replace(HTML_UNSAFE, escapeHtml) : json;
}
