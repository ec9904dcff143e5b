import { describe, expect, test } from "vitest";
import {
  ATTACHMENTS_ERROR_CODES,
  AttachmentsError,
  MAX_FILES,
  UPLOADS_PREFIX,
  validatePaths,
} from "./index.ts";

const U = "/workspace/uploads/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d-";

/** `[code, message]` of the error `validatePaths(files)` throws; fails when it does not throw. */
function rejection(files: readonly string[]): [string, string] {
  try {
    validatePaths(files);
  } catch (error) {
    expect(error).toBeInstanceOf(AttachmentsError);
    const e = error as AttachmentsError;
    expect(e.name).toBe("AttachmentsError");
    return [e.code, e.message];
  }
  throw new Error("validatePaths did not throw");
}

const padded = (i: number) => [
  "INVALID_PATH",
  `invalid attachment path at index ${i}: empty or whitespace-padded entry`,
];
const badShape = (i: number) => ["INVALID_PATH", `invalid attachment path at index ${i}`];
const dotDot = (i: number) => [
  "INVALID_PATH",
  `invalid attachment path at index ${i}: '..' segment`,
];

describe("constants", () => {
  test("values", () => {
    expect(UPLOADS_PREFIX).toBe("/workspace/uploads/");
    expect(UPLOADS_PREFIX.length).toBe(19);
    expect(U.length).toBe(56);
    expect(MAX_FILES).toBe(10);
    expect(ATTACHMENTS_ERROR_CODES).toEqual(["TOO_MANY_FILES", "DUPLICATE_PATH", "INVALID_PATH"]);
  });
});

describe("validatePaths (docs/spec/formats.md §4.2)", () => {
  test("empty and absent lists are valid", () => {
    expect(() => validatePaths([])).not.toThrow();
    expect(() => validatePaths()).not.toThrow();
  });

  test("exactly 10 files are valid", () => {
    expect(() => validatePaths(Array.from({ length: 10 }, (_, i) => `${U}f${i}`))).not.toThrow();
  });

  test("11 files → TOO_MANY_FILES, checked before any entry", () => {
    expect(rejection(Array.from({ length: 11 }, (_, i) => `${U}f${i}`))).toEqual([
      "TOO_MANY_FILES",
      "too many files: 11 exceeds the maximum of 10",
    ]);
    expect(rejection(Array.from({ length: 25 }, () => ""))).toEqual([
      "TOO_MANY_FILES",
      "too many files: 25 exceeds the maximum of 10",
    ]);
  });

  test.each([
    ["empty", ""],
    ["leading space", ` ${U}a`],
    ["trailing space", `${U}a `],
    ["trailing LF", `${U}a\n`],
    ["leading NEL U+0085", `\u0085${U}a`],
    ["trailing NBSP U+00A0", `${U}a\u00a0`],
    ["trailing ideographic space", `${U}a\u3000`],
  ])("%s → empty or whitespace-padded", (_, p) => {
    expect(rejection([`${U}ok`, p])).toEqual(padded(1));
  });

  test("U+FEFF does not pad: trailing is valid, leading fails the shape", () => {
    expect(() => validatePaths([`${U}a\ufeff`])).not.toThrow();
    expect(rejection([`\ufeff${U}a`])).toEqual(badShape(0));
  });

  test.each([
    ["upper-case hex", "/workspace/uploads/0a1b2c3d-4e5f-4A6b-8c7d-9e0f1a2b3c4d-a"],
    ["no hyphen after the UUID", "/workspace/uploads/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"],
    ["slash after the UUID", "/workspace/uploads/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d/a"],
    ["non-hex letter", "/workspace/uploads/0a1b2c3g-4e5f-4a6b-8c7d-9e0f1a2b3c4d-a"],
    ["short group", "/workspace/uploads/0a1b2c3-4e5f-4a6b-8c7d-9e0f1a2b3c4d-a"],
    ["other directory", "/workspace/upload/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d-a"],
    ["relative", "workspace/uploads/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d-a"],
    ["traversal before the UUID", "/workspace/uploads/../0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d-a"],
    ["plain file", "/etc/passwd"],
  ])("shape mismatch: %s", (_, p) => {
    expect(rejection([p])).toEqual(badShape(0));
  });

  test("no end anchor: any name, even empty, a slash, or sub-directories", () => {
    expect(() =>
      validatePaths([U, `${U}/`, `${U}a/b/c`, `${U}.`, `${U}a/./b`, `${U}a//b`, `${U}..`]),
    ).not.toThrow();
  });

  test("no version or variant check on the UUID", () => {
    expect(() =>
      validatePaths(["/workspace/uploads/00000000-0000-0000-0000-000000000000-x"]),
    ).not.toThrow();
  });

  test.each([
    ["last segment", `${U}b/..`],
    ["middle segment", `${U}a/../b`],
    ["segment right after the UUID", `${U}/../x`],
  ])("'..' as the %s", (_, p) => {
    expect(rejection([`${U}ok`, p])).toEqual(dotDot(1));
  });

  test("'..' inside a segment is not a '..' segment", () => {
    expect(() => validatePaths([`${U}a..b`, `${U}x/.../y`, `${U}..a/b..`])).not.toThrow();
  });

  test("exact duplicate → DUPLICATE_PATH at the later index", () => {
    expect(rejection([`${U}a`, `${U}b`, `${U}a`])).toEqual([
      "DUPLICATE_PATH",
      "duplicate file path at index 2",
    ]);
  });

  test("duplicates are judged on the raw paths (a control character makes them differ)", () => {
    expect(() => validatePaths([`${U}ab`, `${U}a\tb`])).not.toThrow();
  });

  test("entries are checked in order; the first failing entry wins", () => {
    expect(rejection([`${U}a`, `${U}a`, "bad"])).toEqual([
      "DUPLICATE_PATH",
      "duplicate file path at index 1",
    ]);
    expect(rejection([`${U}a`, "bad", `${U}a`])).toEqual(badShape(1));
  });

  test("within one entry the padding check comes before the shape check", () => {
    expect(rejection([" /etc/passwd"])).toEqual(padded(0));
  });

  test("messages never contain the path", () => {
    const [, message] = rejection([`${U}secret/../x`]);
    expect(message).not.toContain("secret");
  });

  test("a non-string entry from an untyped caller is an invalid path, not a crash", () => {
    expect(rejection([42 as unknown as string])).toEqual(badShape(0));
  });
});
