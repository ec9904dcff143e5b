import { LINE_END, LINE_MIDDLE, LINE_START } from "./constants.ts";

const NEEDS_ESCAPE = /["\\]/;
const ESCAPABLE = /["\\]/g;
const ESCAPED = /\\(["\\])/g;

/** A manifest line's two values, still escaped. */
export interface RawEntry {
  readonly path: string;
  readonly name: string;
}

/**
 * Escapes a value for a manifest line (docs/spec/formats.md §4.1): `\` → `\\` and `"` → `\"` in one
 * pass; nothing else changes.
 *
 * @example escapeValue('say "hi"') === 'say \\"hi\\"'
 */
export function escapeValue(v: string): string {
  return NEEDS_ESCAPE.test(v) ? v.replace(ESCAPABLE, "\\$&") : v;
}

/**
 * Undoes {@link escapeValue}: `\\` → `\`, `\"` → `"`.
 *
 * @example unescapeValue('say \\"hi\\"') === 'say "hi"'
 */
export function unescapeValue(v: string): string {
  return v.includes("\\") ? v.replace(ESCAPED, "$1") : v;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Index of the `"` that closes a value starting at `from`, or -1 when a backslash precedes
 * anything but `\` or `"`, or no closing quote exists. A hand-written scan rather than the spec's
 * regex: V8's backtracking stack overflows (throws) on multi-megabyte lines.
 */
function valueEnd(line: string, from: number): number {
  for (let i = from; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === QUOTE) return i;
    if (c === BACKSLASH) {
      const next = line.charCodeAt(i + 1);
      if (next !== QUOTE && next !== BACKSLASH) return -1;
      i++;
    }
  }
  return -1;
}

/**
 * The escaped path and name of `line` when it is a whole v1 manifest line
 * (docs/spec/formats.md §4.1, the pattern `^\[llmsafespaces:attachment path="((?:[^"\\]|\\["\\])*)"
 * name="((?:[^"\\]|\\["\\])*)"\]$`), else `null`. `line` must not contain `\n`. Linear time, never
 * throws.
 *
 * @example matchLine('[llmsafespaces:attachment path="/p" name="n"]') // { path: "/p", name: "n" }
 */
export function matchLine(line: string): RawEntry | null {
  if (!line.startsWith(LINE_START) || !line.endsWith(LINE_END)) return null;
  const pathStart = LINE_START.length;
  const pathEnd = valueEnd(line, pathStart);
  if (pathEnd < 0 || !line.startsWith(LINE_MIDDLE, pathEnd)) return null;
  const nameStart = pathEnd + LINE_MIDDLE.length;
  const nameEnd = valueEnd(line, nameStart);
  // The closing quote of the name must be the one of the final `"]`.
  if (nameEnd !== line.length - LINE_END.length) return null;
  return { path: line.slice(pathStart, pathEnd), name: line.slice(nameStart, nameEnd) };
}

/**
 * Formats one manifest line (without its LF) from unescaped values.
 *
 * @example formatLine("/p", "n") === '[llmsafespaces:attachment path="/p" name="n"]'
 */
export function formatLine(path: string, name: string): string {
  return `${LINE_START}${escapeValue(path)}${LINE_MIDDLE}${escapeValue(name)}${LINE_END}`;
}
