import { describe, expect, test } from "vitest";
import { parse } from "./index.ts";

/** A manifest line with `p` and `n` already escaped (no LF). */
function L(p: string, n: string): string {
  return `[llmsafespaces:attachment path="${p}" name="${n}"]`;
}

/** Asserts there is no block and the text comes back unchanged. */
function expectNoBlock(text: string): void {
  expect(parse(text)).toEqual({ attachments: null, text });
}

describe("parse: block found (docs/spec/formats.md §4.4)", () => {
  test("trailing LFs after the block are tolerated", () => {
    expect(parse(`p\n\n${L("a", "b")}\n\n\n`)).toEqual({
      attachments: [{ path: "a", name: "b" }],
      text: "p",
    });
  });

  test("the separator is optional", () => {
    expect(parse(`p\n${L("a", "b")}`)).toEqual({
      attachments: [{ path: "a", name: "b" }],
      text: "p",
    });
  });

  test("at most one blank line is removed", () => {
    expect(parse(`p\n\n\n${L("a", "b")}`).text).toBe("p\n");
  });

  test("a line of spaces is not blank", () => {
    expect(parse(`p\n \n${L("a", "b")}`).text).toBe("p\n ");
  });

  test("a block on line 0 gives prose ''", () => {
    expect(parse(L("a", "b"))).toEqual({ attachments: [{ path: "a", name: "b" }], text: "" });
    expect(parse(`\n${L("a", "b")}`).text).toBe("");
  });

  test("paths are not validated", () => {
    expect(parse(`x\n\n${L("/etc/passwd", "")}`).attachments).toEqual([
      { path: "/etc/passwd", name: "" },
    ]);
  });

  test("values are unescaped; CR, [, ], U+2028 are ordinary value characters", () => {
    expect(parse(L('a\\"b\\\\c', "[x]\r\u2028")).attachments).toEqual([
      { path: 'a"b\\c', name: "[x]\r\u2028" },
    ]);
  });

  test("an escaped backslash before the closing quote ends the value", () => {
    expect(parse(L("a\\\\", "b\\\\")).attachments).toEqual([{ path: "a\\", name: "b\\" }]);
  });

  test("only the maximal trailing run counts; earlier block lines above prose are prose", () => {
    expect(parse(`${L("1", "1")}\nmid\n\n${L("2", "2")}\n${L("3", "3")}`)).toEqual({
      attachments: [
        { path: "2", name: "2" },
        { path: "3", name: "3" },
      ],
      text: `${L("1", "1")}\nmid`,
    });
  });

  test("prose keeps its own CRLF", () => {
    expect(parse(`a\r\nb\r\n\n${L("p", "n")}`).text).toBe("a\r\nb\r");
  });
});

describe("parse: no block → null, text unchanged (docs/spec/formats.md §4.4)", () => {
  test.each([
    ["empty", ""],
    ["only LFs", "\n\n"],
    ["prose with trailing LFs", "hello\n\n"],
    ["block followed by prose", `x\n\n${L("p", "n")}\nthanks`],
    ["CR at the end of the block line", `x\n\n${L("p", "n")}\r\n`],
    ["CRLF block", `x\r\n\r\n${L("p", "n")}\r\n`],
    ["unknown attribute", `x\n\n[llmsafespaces:attachment path="p" name="n" bytes="1"]`],
    ["version word", `x\n\n[llmsafespaces:attachment-v2 path="p" name="n"]`],
    ["attributes swapped", `x\n\n[llmsafespaces:attachment name="n" path="p"]`],
    ["two spaces before path", `x\n\n[llmsafespaces:attachment  path="p" name="n"]`],
    ["two spaces before name", `x\n\n[llmsafespaces:attachment path="p"  name="n"]`],
    ["something after ]", `x\n\n${L("p", "n")} `],
    ["leading space", `x\n\n ${L("p", "n")}`],
    ["upper-case tag", `x\n\n[LLMSAFESPACES:attachment path="p" name="n"]`],
    ["backslash before another character", `x\n\n${L("a\\nb", "n")}`],
    ["lone trailing backslash", `x\n\n${L("a", "n\\")}`],
    ["unescaped quote in a value", `x\n\n${L('a"b', "n")}`],
    ["missing name", `x\n\n[llmsafespaces:attachment path="p"]`],
    ["single quotes", `x\n\n[llmsafespaces:attachment path='p' name='n']`],
  ])("%s", (_, text) => {
    expectNoBlock(text);
  });

  test("unpaired surrogates become U+FFFD (docs/spec/formats.md §0)", () => {
    expect(parse("a\udc00")).toEqual({ attachments: null, text: "a\ufffd" });
  });
});
