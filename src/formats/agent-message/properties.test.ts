import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { goTrimSpace, toWellFormed } from "../text/index.ts";
import { compose, type Origin, PREFIX, parse, SUFFIX } from "./index.ts";

/** Fragments that try to break the line, the comment or the JSON, plus odd code units. */
const HOSTILE = [
  "-->",
  " -->",
  "<!--",
  PREFIX,
  SUFFIX,
  "\n",
  "\r",
  "\r\n",
  '"',
  "\\",
  "]",
  "[",
  "{",
  "}",
  "<",
  ">",
  "&",
  "\u2028",
  "\u2029",
  "\u0085",
  "\u00a0",
  "\u3000",
  "\ufeff",
  "\u202e",
  "\u0000",
  "\u001b",
  "\u007f",
  "\ud800",
  "\udc00",
  "\ud83d\ude00",
  " ",
  "\t",
] as const;

/** Strings built from hostile fragments, arbitrary UTF-16 code units and ASCII. */
const hostileString: fc.Arbitrary<string> = fc.string({
  unit: fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: "binary", maxLength: 3 })),
  maxLength: 24,
});

/** Any UTF-16 sequence, lone surrogates included. */
const anyUtf16: fc.Arbitrary<string> = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
});

const text: fc.Arbitrary<string> = fc.oneof(hostileString, anyUtf16, fc.string());

const nonBlank: fc.Arbitrary<string> = text.filter((s) => goTrimSpace(toWellFormed(s)) !== "");

const origin: fc.Arbitrary<Origin> = fc.record(
  {
    fromSession: nonBlank,
    workspace: text,
    mode: text.filter((s) => s !== ""),
  },
  { requiredKeys: ["fromSession", "mode"] },
);

/** What parse returns as origin for `o`: well-formed values, no empty workspace. */
function expectedOrigin(o: Origin): Origin {
  const workspace = toWellFormed(o.workspace ?? "");
  return {
    fromSession: toWellFormed(o.fromSession),
    ...(workspace === "" ? {} : { workspace }),
    mode: toWellFormed(o.mode as string),
  };
}

/** The first line of `s` (up to the first LF). */
function firstLine(s: string): string {
  const i = s.indexOf("\n");
  return i < 0 ? s : s.slice(0, i);
}

describe("agent-message properties", () => {
  test("a re-send replaces the origin: compose(compose(m, o1), o2) === compose(m, o2)", () => {
    fc.assert(
      fc.property(text, origin, origin, (m, o1, o2) => {
        expect(compose(compose(m, o1), o2)).toBe(compose(m, o2));
      }),
    );
  });

  test("parse(compose(m, o)) returns o and m (m well-formed, unless m began with a sentinel)", () => {
    fc.assert(
      fc.property(text, origin, (m, o) => {
        const result = parse(compose(m, o));
        expect(result.found).toBe(true);
        expect(result.origin).toEqual(expectedOrigin(o));
        const inner = parse(m);
        expect(result.text).toBe(inner.found ? inner.text : toWellFormed(m));
      }),
    );
  });

  test("a hostile value never breaks the line: one line, one comment, nothing raw", () => {
    fc.assert(
      fc.property(text, origin, (m, o) => {
        const out = compose(m, o);
        const line = firstLine(out);
        expect(out.slice(line.length, line.length + 1)).toBe("\n");
        expect(line.startsWith(PREFIX)).toBe(true);
        expect(line.endsWith(SUFFIX)).toBe(true);
        const payload = line.slice(PREFIX.length, -SUFFIX.length);
        // No character that could end the comment, the line, or confuse a line splitter.
        expect(payload).not.toMatch(/[<>&\r\n\u2028\u2029]/);
        expect(payload.startsWith('{"fromSession":"')).toBe(true);
        expect(payload.endsWith('"}')).toBe(true);
        expect(toWellFormed(payload)).toBe(payload);
      }),
    );
  });

  test("parse never throws, and a miss returns the (well-formed) text unchanged", () => {
    const sentinelish = fc
      .tuple(fc.constantFrom(PREFIX, "", " "), text, fc.constantFrom(SUFFIX, "", "-->"), text)
      .map(([a, b, c, d]) => `${a}{${b}}${c}\n${d}`);
    fc.assert(
      fc.property(fc.oneof(text, sentinelish), (s) => {
        const result = parse(s);
        if (!result.found) {
          expect(result.origin).toBeNull();
          expect(result.text).toBe(toWellFormed(s));
        } else {
          expect(goTrimSpace(result.origin.fromSession)).not.toBe("");
        }
      }),
    );
  });

  test("huge and deeply nested inputs do not throw", () => {
    const big = "x".repeat(4_000_000);
    expect(parse(big).found).toBe(false);
    expect(parse(`${PREFIX}{"fromSession":"${big}"}${SUFFIX}\n`).origin?.fromSession).toBe(big);
    expect(
      parse(`${PREFIX}{"a":${"[".repeat(200_000)}${"]".repeat(200_000)}}${SUFFIX}`).found,
    ).toBe(false);
    expect(parse(`${PREFIX}{${"\n".repeat(1_000_000)}`).found).toBe(false);
    expect(parse(`${PREFIX}${"\ud800".repeat(100_000)}`).text).toBe(
      `${PREFIX}${"\ufffd".repeat(100_000)}`,
    );
    expect(compose(big, { fromSession: "s", mode: "injected" }).length).toBe(
      big.length +
        PREFIX.length +
        SUFFIX.length +
        '{"fromSession":"s","mode":"injected"}'.length +
        1,
    );
  });
});
