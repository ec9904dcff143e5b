import type { JsonObject, JsonValue } from "./json-value.ts";

/** Why {@link parseStrictJson} refused a text. */
export const STRICT_JSON_FAILURES = ["malformed_json", "duplicate_member", "not_utf8"] as const;

/** A {@link parseStrictJson} failure reason. */
export type StrictJsonFailure = (typeof STRICT_JSON_FAILURES)[number];

/** Result of {@link parseStrictJson}. */
export type StrictJsonResult =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly reason: StrictJsonFailure };

/**
 * Numbers written with a fraction or an exponent whose value is nevertheless an integer (`1.0`,
 * `2e1`), keyed by the container that holds them. BAP/1 integers are written without fraction or
 * exponent (docs/spec/protocol.md §2 TypeScript notes), a distinction a JS number loses; validators
 * ask {@link isNonIntegerLexeme}. Weak, so it never keeps a document alive.
 */
const nonIntegerLexemes = new WeakMap<object, Set<string | number>>();

/**
 * True when the member `key` of `container` (an object member name or an array index) was parsed
 * by {@link parseStrictJson} from a number written with a fraction or an exponent. Values built
 * in process (not parsed) always answer `false`.
 *
 * @example
 * const r = parseStrictJson('{"n": 2.0}');
 * r.ok && isNonIntegerLexeme(r.value as object, "n") === true;
 */
export function isNonIntegerLexeme(container: object, key: string | number): boolean {
  return nonIntegerLexemes.get(container)?.has(key) ?? false;
}

function recordNonIntegerLexeme(container: object, key: string | number): void {
  let keys = nonIntegerLexemes.get(container);
  if (keys === undefined) {
    keys = new Set();
    nonIntegerLexemes.set(container, keys);
  }
  keys.add(key);
}

interface ArrayFrame {
  readonly array: JsonValue[];
  readonly object: undefined;
  key: string;
}

interface ObjectFrame {
  readonly array: undefined;
  readonly object: JsonObject;
  key: string;
}

type Frame = ArrayFrame | ObjectFrame;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Parses one JSON text (RFC 8259) strictly and never throws: no duplicate member names at any
 * depth (`duplicate_member`), no unpaired surrogate, raw or `\u`-escaped (`not_utf8`), nothing
 * but JSON whitespace (space, tab, LF, CR) around the value, no BOM (`malformed_json`). Builds plain
 * objects exactly like `JSON.parse` (a `__proto__` member is an own property). Iterative, so nesting
 * depth is bounded only by memory.
 *
 * @example
 * parseStrictJson('{"a":1}');        // { ok: true, value: { a: 1 } }
 * parseStrictJson('{"a":1,"a":2}');  // { ok: false, reason: "duplicate_member" }
 */
export function parseStrictJson(text: string): StrictJsonResult {
  const length = text.length;
  let pos = 0;
  let failure: StrictJsonFailure = "malformed_json";
  const stack: Frame[] = [];

  const skipWhitespace = (): void => {
    while (pos < length) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
      else return;
    }
  };

  const hex4 = (at: number): number => {
    if (at + 4 > length) return -1;
    let value = 0;
    for (let i = at; i < at + 4; i++) {
      const c = text.charCodeAt(i);
      let digit: number;
      if (c >= 0x30 && c <= 0x39) digit = c - 0x30;
      else if (c >= 0x61 && c <= 0x66) digit = c - 0x57;
      else if (c >= 0x41 && c <= 0x46) digit = c - 0x37;
      else return -1;
      value = value * 16 + digit;
    }
    return value;
  };

  // Parses the string starting at `pos` (which holds a quote); undefined on failure.
  const parseString = (): string | undefined => {
    const start = pos + 1;
    let i = start;
    while (i < length) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        pos = i + 1;
        return text.slice(start, i);
      }
      if (c === BACKSLASH) break;
      if (c < 0x20) return undefined;
      if (c >= 0xd800 && c <= 0xdfff) {
        const next = text.charCodeAt(i + 1);
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          i += 2;
          continue;
        }
        failure = "not_utf8";
        return undefined;
      }
      i++;
    }
    if (i >= length) return undefined;
    // Slow path: the string holds escapes.
    let out = text.slice(start, i);
    let runStart = i;
    while (i < length) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        pos = i + 1;
        return out + text.slice(runStart, i);
      }
      if (c < 0x20) return undefined;
      if (c >= 0xd800 && c <= 0xdfff) {
        const next = text.charCodeAt(i + 1);
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          i += 2;
          continue;
        }
        failure = "not_utf8";
        return undefined;
      }
      if (c !== BACKSLASH) {
        i++;
        continue;
      }
      out += text.slice(runStart, i);
      const e = text.charCodeAt(i + 1);
      switch (e) {
        case 0x22:
          out += '"';
          break;
        case 0x5c:
          out += "\\";
          break;
        case 0x2f:
          out += "/";
          break;
        case 0x62:
          out += "\b";
          break;
        case 0x66:
          out += "\f";
          break;
        case 0x6e:
          out += "\n";
          break;
        case 0x72:
          out += "\r";
          break;
        case 0x74:
          out += "\t";
          break;
        case 0x75: {
          const unit = hex4(i + 2);
          if (unit < 0) return undefined;
          if (unit >= 0xd800 && unit <= 0xdfff) {
            // Only a high surrogate escape immediately followed by a low one is a code point.
            if (
              unit > 0xdbff ||
              text.charCodeAt(i + 6) !== BACKSLASH ||
              text.charCodeAt(i + 7) !== 0x75
            ) {
              failure = "not_utf8";
              return undefined;
            }
            const low = hex4(i + 8);
            if (low < 0) return undefined;
            if (low < 0xdc00 || low > 0xdfff) {
              failure = "not_utf8";
              return undefined;
            }
            out += String.fromCharCode(unit, low);
            i += 12;
            runStart = i;
            continue;
          }
          out += String.fromCharCode(unit);
          i += 6;
          runStart = i;
          continue;
        }
        default:
          return undefined;
      }
      i += 2;
      runStart = i;
    }
    return undefined;
  };

  // Scans a number at `pos`; returns its value and whether it was written as a plain integer.
  let numberIsIntegerLexeme = true;
  const parseNumber = (): number | undefined => {
    const start = pos;
    numberIsIntegerLexeme = true;
    if (text.charCodeAt(pos) === 0x2d) pos++;
    const first = text.charCodeAt(pos);
    if (first === 0x30) {
      pos++;
    } else if (first >= 0x31 && first <= 0x39) {
      pos++;
      while (pos < length && isDigit(text.charCodeAt(pos))) pos++;
    } else {
      return undefined;
    }
    if (text.charCodeAt(pos) === 0x2e) {
      numberIsIntegerLexeme = false;
      pos++;
      if (!isDigit(text.charCodeAt(pos))) return undefined;
      while (pos < length && isDigit(text.charCodeAt(pos))) pos++;
    }
    const e = text.charCodeAt(pos);
    if (e === 0x65 || e === 0x45) {
      numberIsIntegerLexeme = false;
      pos++;
      const sign = text.charCodeAt(pos);
      if (sign === 0x2b || sign === 0x2d) pos++;
      if (!isDigit(text.charCodeAt(pos))) return undefined;
      while (pos < length && isDigit(text.charCodeAt(pos))) pos++;
    }
    return Number(text.slice(start, pos));
  };

  const fail = (): StrictJsonResult => ({ ok: false, reason: failure });

  skipWhitespace();
  for (;;) {
    // Parse one value at `pos` (whitespace already skipped).
    let value: JsonValue;
    let integerLexeme = true;
    const c = text.charCodeAt(pos);
    if (c === 0x7b) {
      pos++;
      skipWhitespace();
      if (text.charCodeAt(pos) === 0x7d) {
        pos++;
        value = {};
      } else {
        if (text.charCodeAt(pos) !== QUOTE) return fail();
        const key = parseString();
        if (key === undefined) return fail();
        skipWhitespace();
        if (text.charCodeAt(pos) !== 0x3a) return fail();
        pos++;
        skipWhitespace();
        stack.push({ array: undefined, object: {}, key });
        continue;
      }
    } else if (c === 0x5b) {
      pos++;
      skipWhitespace();
      if (text.charCodeAt(pos) === 0x5d) {
        pos++;
        value = [];
      } else {
        stack.push({ array: [], object: undefined, key: "" });
        continue;
      }
    } else if (c === QUOTE) {
      const s = parseString();
      if (s === undefined) return fail();
      value = s;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const n = parseNumber();
      if (n === undefined) return fail();
      value = n;
      integerLexeme = numberIsIntegerLexeme;
    } else if (text.startsWith("true", pos)) {
      pos += 4;
      value = true;
    } else if (text.startsWith("false", pos)) {
      pos += 5;
      value = false;
    } else if (text.startsWith("null", pos)) {
      pos += 4;
      value = null;
    } else {
      return fail();
    }

    // Attach the finished value to its container; close containers that end here.
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) {
        skipWhitespace();
        return pos === length ? { ok: true, value } : fail();
      }
      skipWhitespace();
      const next = text.charCodeAt(pos);
      if (top.array !== undefined) {
        if (!integerLexeme && Number.isInteger(value)) {
          recordNonIntegerLexeme(top.array, top.array.length);
        }
        top.array.push(value);
        integerLexeme = true;
        if (next === 0x2c) {
          pos++;
          skipWhitespace();
          break;
        }
        if (next !== 0x5d) return fail();
        pos++;
        value = top.array;
        stack.pop();
        continue;
      }
      const object = top.object;
      const key = top.key;
      if (Object.hasOwn(object, key)) {
        failure = "duplicate_member";
        return fail();
      }
      if (key === "__proto__") {
        Object.defineProperty(object, key, {
          value,
          writable: true,
          enumerable: true,
          configurable: true,
        });
      } else {
        object[key] = value;
      }
      if (!integerLexeme && Number.isInteger(value)) recordNonIntegerLexeme(object, key);
      integerLexeme = true;
      if (next === 0x2c) {
        pos++;
        skipWhitespace();
        if (text.charCodeAt(pos) !== QUOTE) return fail();
        const nextKey = parseString();
        if (nextKey === undefined) return fail();
        skipWhitespace();
        if (text.charCodeAt(pos) !== 0x3a) return fail();
        pos++;
        skipWhitespace();
        top.key = nextKey;
        break;
      }
      if (next !== 0x7d) return fail();
      pos++;
      value = object;
      stack.pop();
    }
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
