import { describe, expect, test } from "vitest";
import { loadBipia } from "../../../test/support/corpus.ts";
import { goTrimSpace, toWellFormed } from "../text/index.ts";
import { AttachmentsError, compose, parse, validatePaths } from "./index.ts";

const corpus = loadBipia();
const U = "/workspace/uploads/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d-";
const SPEC_LINE =
  /^\[llmsafespaces:attachment path="((?:[^"\\]|\\["\\])*)" name="((?:[^"\\]|\\["\\])*)"\]$/;
const CONTROL = /\p{Cc}/gu;

describe("BIPIA corpus through the attachment manifest", () => {
  test("every attack as a file-name suffix: rejected for a stated reason, or one intact line", () => {
    let composed = 0;
    for (const { source, text } of corpus) {
      const path = U + text;
      const padded = goTrimSpace(path) !== path;
      const dotDot = path.split("/").includes("..");
      if (padded || dotDot) {
        expect(() => validatePaths([path]), source).toThrow(AttachmentsError);
        continue;
      }
      const out = compose("See attached.", [path]);
      const lines = out.split("\n");
      expect(lines, source).toHaveLength(4);
      expect(lines[0]).toBe("See attached.");
      expect(lines[1]).toBe("");
      expect(lines[2], source).toMatch(SPEC_LINE);
      expect(lines[3]).toBe("");
      const name = toWellFormed(text).replace(CONTROL, "");
      expect(parse(out), source).toEqual({
        attachments: [{ path: U + name, name }],
        text: "See attached.",
      });
      composed++;
    }
    // Most attack strings are plain sentences and must go through.
    expect(composed).toBeGreaterThan(corpus.length / 2);
  });

  test("every attack as prose: block appended, prose and files round trip, idempotent", () => {
    const files = [`${U}report.pdf`, `${U}notes/a b.txt`];
    const entries = [
      { path: `${U}report.pdf`, name: "report.pdf" },
      { path: `${U}notes/a b.txt`, name: "notes/a b.txt" },
    ];
    for (const { source, text } of corpus) {
      const out = compose(text, files);
      const prose = toWellFormed(text).replace(/\n+$/, "");
      expect(out, source).toBe(
        `${prose}\n\n[llmsafespaces:attachment path="${U}report.pdf" name="report.pdf"]\n` +
          `[llmsafespaces:attachment path="${U}notes/a b.txt" name="notes/a b.txt"]\n`,
      );
      expect(parse(out), source).toEqual({ attachments: entries, text: prose });
      expect(compose(out, files), source).toBe(out);
      expect(parse(text), source).toEqual({ attachments: null, text });
    }
  });
});
