const LINE_SEPARATORS = /[\u2028\u2029]/g;

/**
 * One NDJSON line: compact JSON of `value` plus `\n` (docs/spec/protocol.md §5). `\n` and `\r`
 * inside strings are escaped by JSON itself; U+2028 and U+2029 are escaped as `\u2028` / `\u2029`
 * too, so no reader that treats them as line breaks can split an event. Round-trips through
 * `JSON.parse`.
 *
 * @example
 * ndjsonLine({ event: "acked", message_ids: ["m-1"], unknown: [] });
 * // '{"event":"acked","message_ids":["m-1"],"unknown":[]}\n'
 */
export function ndjsonLine(value: unknown): string {
  const json = JSON.stringify(value);
  const text = LINE_SEPARATORS.test(json)
    ? json.replace(LINE_SEPARATORS, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"))
    : json;
  LINE_SEPARATORS.lastIndex = 0;
  return `${text}\n`;
}
