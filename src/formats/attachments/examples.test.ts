import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { expectGolden, expectNoOrphanGoldens, testdataDir } from "../../../test/support/golden.ts";
import { AttachmentsError, compose, parse, validatePaths } from "./index.ts";

const dir = testdataDir(import.meta.url);
const U = "/workspace/uploads/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d-";

/** `L(p, n)`: a manifest line with `p` and `n` already escaped (no LF). */
function L(p: string, n: string): string {
  return `[llmsafespaces:attachment path="${p}" name="${n}"]`;
}

/** The docs/spec/formats.md §4.5 compose examples; their outputs are also goldens (raw text). */
const composeCases = [
  {
    golden: "compose-two-files.txt",
    run: () => compose("See both.", [`${U}plan.md`, `${U}logs/run 1.txt`]),
    expected: `See both.\n\n${L(`${U}plan.md`, "plan.md")}\n${L(`${U}logs/run 1.txt`, "logs/run 1.txt")}\n`,
  },
  {
    golden: "compose-control-stripped.txt",
    run: () => compose("Notes\n", [`${U}tab\there.txt`]),
    expected: `Notes\n\n${L(`${U}tabhere.txt`, "tabhere.txt")}\n`,
  },
  {
    golden: "compose-escaped-quotes.txt",
    run: () => compose("Q", [`${U}say "hi".txt`]),
    expected:
      'Q\n\n[llmsafespaces:attachment path="/workspace/uploads/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d-say \\"hi\\".txt" name="say \\"hi\\".txt"]\n',
  },
  {
    golden: "compose-replaces-block.txt",
    run: () => compose(compose("Hi", [`${U}a.txt`]), [`${U}b.txt`]),
    expected: `Hi\n\n${L(`${U}b.txt`, "b.txt")}\n`,
  },
] as const;

describe("docs/spec/formats.md §4.5 compose examples (goldens)", () => {
  for (const c of composeCases) {
    test(c.golden, () => {
      const out = c.run();
      expect(out).toBe(c.expected);
      expectGolden(join(dir, c.golden), out);
    });
  }

  test("docs/15-attachments.md points to every golden", () => {
    const doc = readFileSync(new URL("../../../docs/15-attachments.md", import.meta.url), "utf8");
    for (const c of composeCases)
      expect(doc).toContain(`src/formats/attachments/testdata/${c.golden}`);
  });

  test("no orphan goldens", () => {
    expectNoOrphanGoldens(
      dir,
      composeCases.map((c) => c.golden),
    );
  });
});

/** The error `validatePaths(files)` throws, or a failure when it does not throw. */
function validationError(files: readonly string[]): AttachmentsError {
  try {
    validatePaths(files);
  } catch (error) {
    expect(error).toBeInstanceOf(AttachmentsError);
    return error as AttachmentsError;
  }
  throw new Error("validatePaths did not throw");
}

describe("docs/spec/formats.md §4.5 validation and parse examples", () => {
  test("upper-case hex in the UUID → INVALID_PATH at index 1", () => {
    const error = validationError([
      `${U}a`,
      "/workspace/uploads/0A1B2C3D-4e5f-4a6b-8c7d-9e0f1a2b3c4d-b",
    ]);
    expect(error.code).toBe("INVALID_PATH");
    expect(error.message).toBe("invalid attachment path at index 1");
  });

  test("a '..' segment → INVALID_PATH at index 1: '..' segment", () => {
    const error = validationError([`${U}a`, `${U}b/..`]);
    expect(error.code).toBe("INVALID_PATH");
    expect(error.message).toBe("invalid attachment path at index 1: '..' segment");
  });

  test("parse returns both attachments in order and the prose", () => {
    expect(parse(`Review:\n\n${L(`${U}x.csv`, "x.csv")}\n${L(`${U}y.csv`, "y.csv")}\n`)).toEqual({
      attachments: [
        { path: `${U}x.csv`, name: "x.csv" },
        { path: `${U}y.csv`, name: "y.csv" },
      ],
      text: "Review:",
    });
  });

  test("a block followed by prose is not trailing: null, text unchanged", () => {
    const text = `x\n\n${L(`${U}r.pdf`, "r.pdf")}\nthanks`;
    expect(parse(text)).toEqual({ attachments: null, text });
  });
});
