import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { expectGolden, expectNoOrphanGoldens, testdataDir } from "../../../test/support/golden.ts";
import { AgentMessageError, compose, PREFIX as P, parse, SUFFIX as Q } from "./index.ts";

const dir = testdataDir(import.meta.url);

/** The docs/spec/formats.md §3.6 compose examples whose output is also a golden (raw text). */
const composeCases = [
  {
    golden: "compose-injected.txt",
    run: () => compose("Please rebase on main.", { fromSession: "ses_7Qk2", mode: "injected" }),
    expected: `${P}{"fromSession":"ses_7Qk2","mode":"injected"}${Q}\nPlease rebase on main.`,
  },
  {
    golden: "compose-workspace-self-declared.txt",
    run: () =>
      compose("a\n\nb", { mode: "self-declared", workspace: "ws-east", fromSession: "ses_9" }),
    expected: `${P}{"fromSession":"ses_9","workspace":"ws-east","mode":"self-declared"}${Q}\na\n\nb`,
  },
  {
    golden: "compose-html-escaping.txt",
    run: () => compose("x", { fromSession: 's "1" <x> & y\u2029', mode: "injected" }),
    // Each \u…  below is six ASCII characters in the output.
    expected: `${P}{"fromSession":"s \\"1\\" \\u003cx\\u003e \\u0026 y\\u2029","mode":"injected"}${Q}\nx`,
  },
  {
    golden: "compose-replaces-sentinel.txt",
    run: () =>
      compose(`${P}{"fromSession":"ses_a1","workspace":"w2"}${Q}\nbody`, {
        fromSession: "ses_b7",
        mode: "injected",
      }),
    expected: `${P}{"fromSession":"ses_b7","mode":"injected"}${Q}\nbody`,
  },
] as const;

describe("docs/spec/formats.md §3.6 compose examples (goldens)", () => {
  for (const c of composeCases) {
    test(c.golden, () => {
      const out = c.run();
      expect(out).toBe(c.expected);
      expectGolden(join(dir, c.golden), out);
    });
  }

  test("docs/14-agent-message.md points to every golden", () => {
    const doc = readFileSync(new URL("../../../docs/14-agent-message.md", import.meta.url), "utf8");
    for (const c of composeCases)
      expect(doc).toContain(`src/formats/agent-message/testdata/${c.golden}`);
  });

  test("no orphan goldens", () => {
    expectNoOrphanGoldens(
      dir,
      composeCases.map((c) => c.golden),
    );
  });
});

describe("docs/spec/formats.md §3.6 other examples", () => {
  test("compose with an ideographic-space fromSession throws 'fromSession is required'", () => {
    const run = () => compose("hi", { fromSession: "\u3000", mode: "injected" });
    expect(run).toThrow(AgentMessageError);
    expect(run).toThrow(/^fromSession is required$/);
  });

  test("parse keeps fromSession untrimmed, ignores unknown keys, returns the rest byte for byte", () => {
    expect(parse(`${P}{"fromSession":"  ses_5  ","hop":2,"mode":"injected"}${Q}\nbody\n`)).toEqual({
      found: true,
      origin: { fromSession: "  ses_5  ", mode: "injected" },
      text: "body\n",
    });
  });

  test("parse refuses a payload with no space before -->", () => {
    const text = `${P}{"fromSession":"ses_5"}-->\nbody`;
    expect(parse(text)).toEqual({ found: false, origin: null, text });
  });

  test("parse refuses a workspace of the wrong type instead of dropping it", () => {
    const text = `${P}{"fromSession":"ses_5","workspace":{"id":1}}${Q}\nb`;
    expect(parse(text)).toEqual({ found: false, origin: null, text });
  });
});
