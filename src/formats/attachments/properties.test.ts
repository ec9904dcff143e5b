import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { goTrimSpace, toWellFormed } from "../text/index.ts";
import { type Attachment, AttachmentsError, compose, parse, validatePaths } from "./index.ts";

const U = "/workspace/uploads/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d-";

/** The docs/spec/formats.md §4.1 line pattern, used here only as an independent oracle. */
const SPEC_LINE =
  /^\[llmsafespaces:attachment path="((?:[^"\\]|\\["\\])*)" name="((?:[^"\\]|\\["\\])*)"\]$/;

/**
 * docs/spec/formats.md §4.4 written the way the spec words it (split, trailing run, one blank
 * line).
 */
function referenceParse(text: string): { attachments: Attachment[] | null; text: string } {
  const input = toWellFormed(text);
  const core = input.replace(/\n+$/, "");
  if (core === "") return { attachments: null, text: input };
  const lines = core.split("\n");
  let start = lines.length;
  while (start > 0 && SPEC_LINE.test(lines[start - 1] as string)) start--;
  if (start === lines.length) return { attachments: null, text: input };
  let end = start;
  if (end > 0 && lines[end - 1] === "") end--;
  const unescapeValue = (v: string) => v.replace(/\\(["\\])/g, "$1");
  const attachments = lines.slice(start).map((line) => {
    const m = SPEC_LINE.exec(line) as RegExpExecArray;
    return { path: unescapeValue(m[1] as string), name: unescapeValue(m[2] as string) };
  });
  return { attachments, text: lines.slice(0, end).join("\n") };
}

/** Fragments aimed at the line grammar, plus odd code units. */
const HOSTILE = [
  "\n",
  "\r",
  "\r\n",
  '"',
  "\\",
  '\\"',
  "\\\\",
  "]",
  "[",
  '"]',
  '" name="',
  '[llmsafespaces:attachment path="',
  "\n\n",
  "\u2028",
  "\u0085",
  "\u00a0",
  "\u0000",
  "\u001f",
  "\u007f",
  "\u009f",
  "\u202e",
  "\ufeff",
  "\ud800",
  "\udc00",
  "..",
  "/",
  " ",
  "\t",
] as const;

const hostileString: fc.Arbitrary<string> = fc.string({
  unit: fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: "binary", maxLength: 3 })),
  maxLength: 24,
});

/** A manifest line with arbitrary (hostile) escaped-or-not values, newline-free. */
const lineish: fc.Arbitrary<string> = fc
  .tuple(hostileString, hostileString)
  .map(([p, n]) => `[llmsafespaces:attachment path="${p}" name="${n}"]`.replaceAll("\n", ""));

/** Texts made of prose lines, blank lines and manifest-like lines. */
const manifestText: fc.Arbitrary<string> = fc
  .array(fc.oneof(hostileString, lineish, fc.constant(""), fc.constant(" ")), { maxLength: 8 })
  .map((lines) => lines.join("\n"));

const text: fc.Arbitrary<string> = fc.oneof(hostileString, manifestText, fc.string());

/** A file name suffix that validates: not padded, no `..` segment. */
const validName: fc.Arbitrary<string> = hostileString.filter((name) => {
  const p = toWellFormed(U + name);
  return goTrimSpace(p) === p && !p.split("/").includes("..");
});

/** 1–10 valid, distinct paths. */
const files: fc.Arbitrary<string[]> = fc
  .uniqueArray(validName, { minLength: 1, maxLength: 10, selector: (n) => toWellFormed(n) })
  .map((names) => names.map((n) => U + n));

const CONTROL = /\p{Cc}/gu;

describe("attachments properties", () => {
  test("the generated files are valid (generator sanity)", () => {
    fc.assert(
      fc.property(files, (f) => {
        expect(() => validatePaths(f)).not.toThrow();
      }),
    );
  });

  test("compose(compose(t, f1), f2) === compose(t, f2) for non-empty f2", () => {
    fc.assert(
      fc.property(text, fc.oneof(files, fc.constant([])), files, (t, f1, f2) => {
        expect(compose(compose(t, f1), f2)).toBe(compose(t, f2));
      }),
    );
  });

  test("parse(compose(t, f)) returns the files (controls removed) and the stripped prose", () => {
    fc.assert(
      fc.property(text, files, (t, f) => {
        const out = compose(t, f);
        const result = parse(out);
        const expected = f.map((p) => {
          const name = toWellFormed(p).slice(56).replace(CONTROL, "");
          return { path: U + name, name };
        });
        expect(result.attachments).toEqual(expected);
        // The prose is the text minus trailing LFs and any old trailing block.
        expect(result.text).toBe(referenceParse(t.replace(/\n+$/, "")).text);
        expect(out.endsWith("\n")).toBe(true);
        expect(out.endsWith("\n\n")).toBe(false);
      }),
    );
  });

  test("a hostile name never breaks the line: one valid line per file, no raw control", () => {
    fc.assert(
      fc.property(text, files, (t, f) => {
        const out = compose(t, f);
        const blockLines = out.slice(0, -1).split("\n").slice(-f.length);
        expect(blockLines).toHaveLength(f.length);
        for (const line of blockLines) {
          expect(line).toMatch(SPEC_LINE);
          expect(line).not.toMatch(CONTROL);
        }
      }),
    );
  });

  test("parse agrees with the spec's split-and-regex reference on any text", () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(parse(t)).toEqual(referenceParse(t));
      }),
      { numRuns: 500 },
    );
  });

  test("parse never throws; no block means the (well-formed) text unchanged", () => {
    const anyUtf16 = fc.string({
      unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
    });
    fc.assert(
      fc.property(fc.oneof(anyUtf16, text), (t) => {
        const result = parse(t);
        if (result.attachments === null) expect(result.text).toBe(toWellFormed(t));
        else expect(result.attachments.length).toBeGreaterThan(0);
      }),
    );
  });

  test("validatePaths only ever throws AttachmentsError", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            text,
            validName.map((n) => U + n),
          ),
          { maxLength: 12 },
        ),
        (f) => {
          try {
            validatePaths(f);
          } catch (error) {
            expect(error).toBeInstanceOf(AttachmentsError);
          }
        },
      ),
    );
  });

  test("huge inputs do not throw (the spec regex would overflow V8's stack here)", () => {
    const big = "a".repeat(10_000_000);
    const line = `[llmsafespaces:attachment path="${big}" name="${big}"]`;
    expect(parse(`x\n\n${line}\n`).attachments?.[0]?.name.length).toBe(big.length);
    expect(parse(`[llmsafespaces:attachment path="${big}"]`).attachments).toBeNull();
    expect(parse(`${'\\"'.repeat(1_000_000)}`).attachments).toBeNull();
    expect(parse("\n".repeat(5_000_000)).attachments).toBeNull();
    const manyLines = `${'[llmsafespaces:attachment path="p" name="n"]\n'.repeat(200_000)}`;
    expect(parse(manyLines).attachments).toHaveLength(200_000);
    expect(compose(big, [`${U}a`])).toBe(
      `${big}\n\n[llmsafespaces:attachment path="${U}a" name="a"]\n`,
    );
  });
});
