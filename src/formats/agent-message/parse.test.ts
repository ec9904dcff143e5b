import { describe, expect, test } from "vitest";
import { PREFIX as P, parse, SUFFIX as Q } from "./index.ts";

/** Asserts `parse(text)` finds nothing and returns the text unchanged. */
function expectNotFound(text: string): void {
  expect(parse(text)).toEqual({ found: false, origin: null, text });
}

const valid = '{"fromSession":"ses_5","mode":"injected"}';

describe("parse: found", () => {
  test("minimal: fromSession only (a pre-mode sentinel)", () => {
    expect(parse(`${P}{"fromSession":"s"}${Q}\nbody`)).toEqual({
      found: true,
      origin: { fromSession: "s" },
      text: "body",
    });
  });

  test("no LF: whole text is the line, rest is empty", () => {
    expect(parse(`${P}${valid}${Q}`)).toEqual({
      found: true,
      origin: { fromSession: "ses_5", mode: "injected" },
      text: "",
    });
  });

  test("rest is byte for byte (CRLF, blank lines, a second sentinel are content)", () => {
    const rest = `\r\n\n${P}{"fromSession":"other"}${Q}\nz\n`;
    expect(parse(`${P}${valid}${Q}\n${rest}`).text).toBe(rest);
  });

  test("all three keys, escapes decoded", () => {
    expect(
      parse(`${P}{"fromSession":"a\\u003cb\\n","workspace":"w\\u2028","mode":"self-declared"}${Q}`)
        .origin,
    ).toEqual({ fromSession: "a<b\n", workspace: "w\u2028", mode: "self-declared" });
  });

  test("workspace and mode null or empty → absent", () => {
    expect(parse(`${P}{"fromSession":"s","workspace":null,"mode":""}${Q}\n`).origin).toEqual({
      fromSession: "s",
    });
    expect(parse(`${P}{"fromSession":"s","workspace":"","mode":null}${Q}\n`).origin).toEqual({
      fromSession: "s",
    });
  });

  test("mode value is not validated; whitespace values are kept", () => {
    expect(parse(`${P}{"fromSession":"s","workspace":" ","mode":"x y"}${Q}`).origin).toEqual({
      fromSession: "s",
      workspace: " ",
      mode: "x y",
    });
  });

  test("duplicate keys: the last wins", () => {
    expect(parse(`${P}{"fromSession":"a","fromSession":"b"}${Q}`).origin).toEqual({
      fromSession: "b",
    });
    expectNotFound(`${P}{"fromSession":"a","fromSession":null}${Q}`);
  });

  test("escaped key names decode", () => {
    expect(parse(`${P}{"from\\u0053ession":"s"}${Q}`).origin).toEqual({ fromSession: "s" });
  });

  test("a lone surrogate escape decodes to U+FFFD (as Go does)", () => {
    expect(parse(`${P}{"fromSession":"a\\ud800","mode":"\\udc00"}${Q}`).origin).toEqual({
      fromSession: "a\ufffd",
      mode: "\ufffd",
    });
  });

  test("unknown keys are ignored and their values not inspected", () => {
    expect(
      parse(`${P}{"x":[1,{"y":null}],"fromSession":"s","Workspace":5,"MODE":false}${Q}`).origin,
    ).toEqual({ fromSession: "s" });
  });

  test("JSON whitespace (CR, tab, space) between tokens is fine; J still starts { ends }", () => {
    expect(parse(`${P}{\r"fromSession" :\t"s" }${Q}\nb`)).toEqual({
      found: true,
      origin: { fromSession: "s" },
      text: "b",
    });
  });

  test("raw U+2028 / U+2029 / NEL inside the line are not line ends", () => {
    expect(parse(`${P}{"fromSession":"a\u2028b\u2029c\u0085"}${Q}\nrest`).origin).toEqual({
      fromSession: "a\u2028b\u2029c\u0085",
    });
  });

  test("a hostile '} --> junk' inside a JSON string is just a value", () => {
    expect(parse(`${P}{"fromSession":"} --> junk"}${Q}\nx`).origin).toEqual({
      fromSession: "} --> junk",
    });
  });
});

describe("parse: not found, text unchanged (docs/spec/formats.md §3.5)", () => {
  test.each([
    ["empty text", ""],
    ["plain prose", "hello\nworld"],
    ["BOM first", `\ufeff${P}${valid}${Q}\nb`],
    ["leading space", ` ${P}${valid}${Q}\nb`],
    ["upper-case LSP", `<!-- LSP:agent-message-v1 ${valid}${Q}\nb`],
    ["no space after <!--", `<!--lsp:agent-message-v1 ${valid}${Q}\nb`],
    ["CRLF line end", `${P}${valid}${Q}\r\nb`],
    ["trailing space", `${P}${valid}${Q} \nb`],
    ["two spaces before -->", `${P}${valid}  -->\nb`],
    ["two spaces before {", `${P} ${valid}${Q}\nb`],
    ["} --> junk -->", `${P}${valid} --> junk${Q}\nb`],
    ["empty payload", `${P}${Q}\nb`],
    ["payload of one space", `${P} ${Q}\nb`],
    ["prefix and suffix sharing the space", "<!-- lsp:agent-message-v1 -->\nb"],
    ["single {", `${P}{${Q}\nb`],
    ["another version", `<!-- lsp:agent-message-v2 ${valid}${Q}\nb`],
    ["another kind", `<!-- lsp:agent-notice-v1 ${valid}${Q}\nb`],
    ["payload not an object", `${P}["fromSession"]${Q}\nb`],
    ["invalid JSON", `${P}{"fromSession":"s",}${Q}\nb`],
    ["two objects", `${P}{"fromSession":"s"} {"a":1}${Q}\nb`],
    ["raw control character in a JSON string", `${P}{"fromSession":"a\tb"}${Q}\nb`],
    ["no SUFFIX on line 1, SUFFIX on line 2", `${P}${valid}\n${Q}`],
    ["sentinel on line 2 is content", `hello\n${P}${valid}${Q}\nb`],
    ["missing fromSession", `${P}{"mode":"injected"}${Q}\nb`],
    ["fromSession null", `${P}{"fromSession":null}${Q}\nb`],
    ["fromSession empty", `${P}{"fromSession":""}${Q}\nb`],
    ["fromSession GO_SPACE only", `${P}{"fromSession":" \\u0085\\u3000\\t"}${Q}\nb`],
    ["fromSession a number", `${P}{"fromSession":7}${Q}\nb`],
    ["fromSession an array", `${P}{"fromSession":["s"]}${Q}\nb`],
    ["fromSession key in another case", `${P}{"fromsession":"s"}${Q}\nb`],
    ["workspace a number", `${P}{"fromSession":"s","workspace":1}${Q}\nb`],
    ["workspace false", `${P}{"fromSession":"s","workspace":false}${Q}\nb`],
    ["mode a number", `${P}{"fromSession":"s","mode":0}${Q}\nb`],
    ["mode an object", `${P}{"fromSession":"s","mode":{}}${Q}\nb`],
    ["fromSession only inherited via __proto__", `${P}{"__proto__":{"fromSession":"s"}}${Q}\nb`],
  ])("%s", (_, text) => {
    expectNotFound(text);
  });

  test("BOM-like U+FEFF fromSession is not blank (not GO_SPACE)", () => {
    expect(parse(`${P}{"fromSession":"\ufeff"}${Q}`).found).toBe(true);
  });

  test("unpaired surrogates in the text become U+FFFD (docs/spec/formats.md §0), also when nothing is found", () => {
    expect(parse("a\ud800")).toEqual({ found: false, origin: null, text: "a\ufffd" });
    expect(parse(`${P}{"fromSession":"s"}${Q}\n\udc00`).text).toBe("\ufffd");
  });
});
