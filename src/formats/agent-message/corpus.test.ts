import { describe, expect, test } from "vitest";
import { loadBipia } from "../../../test/support/corpus.ts";
import { goTrimSpace, toWellFormed } from "../text/index.ts";
import { compose, PREFIX, parse, SUFFIX } from "./index.ts";

const corpus = loadBipia();

/** Checks the sentinel line of `out` is one intact line and returns its payload. */
function payloadOf(out: string): string {
  const newline = out.indexOf("\n");
  expect(newline).toBeGreaterThan(0);
  const line = out.slice(0, newline);
  expect(line.startsWith(PREFIX)).toBe(true);
  expect(line.endsWith(SUFFIX)).toBe(true);
  const payload = line.slice(PREFIX.length, -SUFFIX.length);
  expect(payload).not.toMatch(/[<>&\r\n\u2028\u2029]/);
  return payload;
}

describe("BIPIA corpus through the sentinel", () => {
  test("the corpus is loaded (250 attack strings)", () => {
    expect(corpus.length).toBe(250);
  });

  test("every attack as message text: intact line, origin and text round trip", () => {
    for (const { source, text } of corpus) {
      const origin = { fromSession: "ses_corpus", mode: "injected" };
      const out = compose(text, origin);
      payloadOf(out);
      expect(parse(out), source).toEqual({ found: true, origin, text: toWellFormed(text) });
      expect(compose(out, origin), source).toBe(out);
    }
  });

  test("every attack as fromSession and as workspace: escaped, one line, round trips", () => {
    for (const { source, text } of corpus) {
      if (goTrimSpace(text) === "") continue;
      const origin = { fromSession: text, workspace: text, mode: "self-declared" };
      const out = compose("body", origin);
      payloadOf(out);
      const result = parse(out);
      expect(result.origin, source).toEqual(origin);
      expect(result.text, source).toBe("body");
    }
  });
});
