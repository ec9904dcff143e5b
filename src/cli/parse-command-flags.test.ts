import { describe, expect, test } from "vitest";
import { CliUsageError } from "./cli-io.ts";
import { nearestUnknownOption, parseCommandFlags } from "./parse-command-flags.ts";

const OPTIONS = { json: { type: "boolean" }, session: { type: "string" } } as const;

function usageMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CliUsageError);
    return (error as CliUsageError).message;
  }
  throw new Error("no usage error");
}

describe("parseCommandFlags", () => {
  test("typed values; positionals only when allowed", () => {
    expect(parseCommandFlags("inbox", ["--json"], OPTIONS).values).toEqual({ json: true });
    const released = parseCommandFlags("inbox", ["--session", "s-1", "m-1"], OPTIONS, true);
    expect(released.values.session).toBe("s-1");
    expect(released.positionals).toEqual(["m-1"]);
  });

  test("an unknown option, a stray positional or a missing value: one fixed line, never the input", () => {
    const expected = 'unknown option or argument (run "brigade inbox --help")';
    for (const argv of [["--<system>evil"], ["stray<b>"], ["--session"], ["--json=yes"]]) {
      const message = usageMessage(() => parseCommandFlags("inbox", argv, OPTIONS));
      expect(message).toBe(expected);
    }
  });

  test("an unknown option near one of the command's own names that one, never the input", () => {
    const options = {
      summary: { type: "string" },
      "human-label": { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    } as const;
    for (const [argv, near] of [
      [["--sumary", "x"], "summary"],
      [["--sumary=<system>evil"], "summary"],
      [["--json", "--human_label", "Dana"], "human-label"],
      [["--HUMAN-LABEL", "Dana"], "human-label"],
      [["--jsno"], "json"],
      [["--hlep"], "help"],
      [["--summ", "x"], "summary"],
    ] as const) {
      expect(usageMessage(() => parseCommandFlags("send", [...argv], options))).toBe(
        `unknown option; did you mean "--${near}"? (run "brigade send --help")`,
      );
    }
    // The team commands' own refusal gives way to a suggestion too.
    expect(
      usageMessage(() =>
        parseCommandFlags("team join", ["--human-lable", "x"], options, false, "team refusal"),
      ),
    ).toBe('unknown option; did you mean "--human-label"? (run "brigade team join --help")');
    // Nothing near, a short option, a missing value, text after "--": the fixed line.
    for (const argv of [
      ["--<system>evil-and-far"],
      ["-x"],
      ["--summary"],
      ["--", "--sumary"],
      ["--json", "--zzzzzzzz"],
    ]) {
      expect(usageMessage(() => parseCommandFlags("send", argv, options))).toBe(
        'unknown option or argument (run "brigade send --help")',
      );
    }
    // Only the first unknown option counts; a suggestion is always one of the command's names.
    expect(nearestUnknownOption(["--zzzzzz", "--sumary"], options)).toBeUndefined();
    expect(nearestUnknownOption(["--json"], options)).toBeUndefined();
  });

  test("a command's own refusal line replaces the default, still never the input", () => {
    const refusal =
      'unknown option, missing value or stray argument (run "brigade team join --help")';
    const message = usageMessage(() =>
      parseCommandFlags("team join", ["--<system>evil"], OPTIONS, false, refusal),
    );
    expect(message).toBe(refusal);
  });

  test("an option with a value given twice is refused: which one was meant is not a guess", () => {
    for (const argv of [
      ["--session", "s-1", "--session", "s-2"],
      ["--session=s-1", "--session", "s-1"],
    ]) {
      expect(usageMessage(() => parseCommandFlags("inbox", argv, OPTIONS))).toBe(
        '--session is given more than once (run "brigade inbox --help")',
      );
    }
    // a repeatable option, and a switch given twice, are fine
    const repeatable = { to: { type: "string", multiple: true } } as const;
    expect(parseCommandFlags("x", ["--to", "a", "--to", "b"], repeatable).values.to).toEqual([
      "a",
      "b",
    ]);
    expect(parseCommandFlags("inbox", ["--json", "--json"], OPTIONS).values.json).toBe(true);
  });
});
