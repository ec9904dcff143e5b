import { describe, expect, test } from "vitest";
import {
  AGENT_MESSAGE_ERROR_CODES,
  AgentMessageError,
  compose,
  MODE_INJECTED,
  MODE_SELF_DECLARED,
  type Origin,
  PREFIX as P,
  SUFFIX as Q,
} from "./index.ts";

/** The error `compose` throws for `origin`, or a failure when it does not throw. */
function composeError(origin: Origin, message = "hi"): AgentMessageError {
  try {
    compose(message, origin);
  } catch (error) {
    expect(error).toBeInstanceOf(AgentMessageError);
    return error as AgentMessageError;
  }
  throw new Error("compose did not throw");
}

/** The payload compose writes for `fromSession` (mode injected). */
function payloadFor(fromSession: string): string {
  const out = compose("", { fromSession, mode: "injected" });
  expect(out.startsWith(P)).toBe(true);
  expect(out.endsWith(`${Q}\n`)).toBe(true);
  return out.slice(P.length, out.length - Q.length - 1);
}

describe("constants", () => {
  test("spellings", () => {
    expect(P).toBe("<!-- lsp:agent-message-v1 ");
    expect(Q).toBe(" -->");
    expect(MODE_INJECTED).toBe("injected");
    expect(MODE_SELF_DECLARED).toBe("self-declared");
    expect(AGENT_MESSAGE_ERROR_CODES).toEqual(["EMPTY_FROM_SESSION"]);
  });
});

describe("compose errors (docs/spec/formats.md §3.4 steps 1-2)", () => {
  test.each([
    ["empty", ""],
    ["space", " "],
    ["tab and newline", "\t\n"],
    ["NEL U+0085", "\u0085"],
    ["NBSP U+00A0", "\u00a0"],
    ["ideographic space", "\u3000"],
    ["line separator", "\u2028"],
  ])("blank fromSession (%s) → 'fromSession is required'", (_, fromSession) => {
    const error = composeError({ fromSession, mode: "injected" });
    expect(error.code).toBe("EMPTY_FROM_SESSION");
    expect(error.message).toBe("fromSession is required");
  });

  test.each([
    ["BOM U+FEFF", "\ufeff"],
    ["ZWSP U+200B", "\u200b"],
    ["Mongolian vowel separator U+180E", "\u180e"],
  ])("%s is not GO_SPACE: accepted as fromSession and written raw", (_, fromSession) => {
    expect(payloadFor(fromSession)).toBe(`{"fromSession":"${fromSession}","mode":"injected"}`);
  });

  test("empty mode → the same class, message 'fromSession is required: mode is required'", () => {
    const error = composeError({ fromSession: "ses_1", mode: "" });
    expect(error.code).toBe("EMPTY_FROM_SESSION");
    expect(error.message).toBe("fromSession is required: mode is required");
  });

  test("absent mode → the same error", () => {
    const error = composeError({ fromSession: "ses_1" });
    expect(error.message).toBe("fromSession is required: mode is required");
  });

  test("fromSession is checked before mode", () => {
    expect(composeError({ fromSession: " ", mode: "" }).message).toBe("fromSession is required");
  });

  test("the error message never contains the offending value", () => {
    const error = composeError({ fromSession: "\u2003\u2003", mode: "injected" });
    expect(error.message).not.toContain("\u2003");
    expect(error.name).toBe("AgentMessageError");
  });

  test("a mode of one space is accepted and its value is not validated", () => {
    expect(compose("m", { fromSession: "s", mode: " " })).toBe(
      `${P}{"fromSession":"s","mode":" "}${Q}\nm`,
    );
    expect(compose("m", { fromSession: "s", mode: "telepathy" })).toBe(
      `${P}{"fromSession":"s","mode":"telepathy"}${Q}\nm`,
    );
  });
});

describe("payload encoding (docs/spec/formats.md §3.3)", () => {
  test("fromSession is written untrimmed", () => {
    expect(payloadFor(" ses_1\t")).toBe('{"fromSession":" ses_1\\t","mode":"injected"}');
  });

  test("quote and backslash", () => {
    expect(payloadFor('a"b\\c')).toBe('{"fromSession":"a\\"b\\\\c","mode":"injected"}');
  });

  test("named control escapes: \\n \\r \\t \\b \\f", () => {
    expect(payloadFor("x\n\r\t\b\f")).toBe('{"fromSession":"x\\n\\r\\t\\b\\f","mode":"injected"}');
  });

  test("other C0 controls as lower-case \\u00xx", () => {
    expect(payloadFor("x\u0000\u0001\u001b\u001f")).toBe(
      '{"fromSession":"x\\u0000\\u0001\\u001b\\u001f","mode":"injected"}',
    );
  });

  test("< > & U+2028 U+2029 escaped as six ASCII characters", () => {
    expect(payloadFor("<>&\u2028\u2029")).toBe(
      '{"fromSession":"\\u003c\\u003e\\u0026\\u2028\\u2029","mode":"injected"}',
    );
  });

  test("U+007F, C1 controls and other non-ASCII are written raw", () => {
    const raw = "x\u007f\u0080\u0085\u009f\u00e9\u202e\u{1f600}";
    expect(payloadFor(raw)).toBe(`{"fromSession":"${raw}","mode":"injected"}`);
  });

  test("an unpaired surrogate becomes U+FFFD, written raw", () => {
    expect(payloadFor("a\ud800b\udc00")).toBe('{"fromSession":"a\ufffdb\ufffd","mode":"injected"}');
  });

  test("hostile --> cannot end the comment: > is escaped", () => {
    expect(payloadFor("x --> y")).toBe('{"fromSession":"x --\\u003e y","mode":"injected"}');
  });

  test("key order fromSession, workspace, mode whatever the object's order", () => {
    expect(compose("", { mode: "m", workspace: "w", fromSession: "f" })).toBe(
      `${P}{"fromSession":"f","workspace":"w","mode":"m"}${Q}\n`,
    );
  });

  test("an empty workspace is not written", () => {
    expect(compose("b", { fromSession: "f", workspace: "", mode: "injected" })).toBe(
      `${P}{"fromSession":"f","mode":"injected"}${Q}\nb`,
    );
  });

  test("a whitespace workspace is non-empty, so it is written", () => {
    expect(compose("b", { fromSession: "f", workspace: " ", mode: "injected" })).toBe(
      `${P}{"fromSession":"f","workspace":" ","mode":"injected"}${Q}\nb`,
    );
  });

  test("workspace and mode get the same escaping", () => {
    expect(compose("", { fromSession: "f", workspace: "<w>\n", mode: '"&"' })).toBe(
      `${P}{"fromSession":"f","workspace":"\\u003cw\\u003e\\n","mode":"\\"\\u0026\\""}${Q}\n`,
    );
  });
});

describe("body (docs/spec/formats.md §3.4 steps 3-4)", () => {
  const o: Origin = { fromSession: "ses_new", mode: "injected" };
  const line = `${P}{"fromSession":"ses_new","mode":"injected"}${Q}`;

  test("the LF is written even for an empty body", () => {
    expect(compose("", o)).toBe(`${line}\n`);
  });

  test("a leading sentinel with no LF is replaced, leaving an empty body", () => {
    expect(compose(`${P}{"fromSession":"old"}${Q}`, o)).toBe(`${line}\n`);
  });

  test("only one valid leading sentinel is removed", () => {
    const second = `${P}{"fromSession":"b"}${Q}`;
    expect(compose(`${P}{"fromSession":"a"}${Q}\n${second}\nbody`, o)).toBe(
      `${line}\n${second}\nbody`,
    );
  });

  test.each([
    ["invalid (no fromSession)", `${P}{"mode":"injected"}${Q}`],
    ["another version", `<!-- lsp:agent-message-v2 {"fromSession":"a"}${Q}`],
    ["indented", ` ${P}{"fromSession":"a"}${Q}`],
    ["CRLF", `${P}{"fromSession":"a"}${Q}\r`],
  ])("a %s first line stays and becomes line 2", (_, first) => {
    expect(compose(`${first}\nbody`, o)).toBe(`${line}\n${first}\nbody`);
  });

  test("the message is otherwise unchanged (CR, U+2028, trailing LFs)", () => {
    expect(compose("a\r\nb\u2028c\n\n", o)).toBe(`${line}\na\r\nb\u2028c\n\n`);
  });

  test("unpaired surrogates in the message become U+FFFD", () => {
    expect(compose("x\udfffy", o)).toBe(`${line}\nx\ufffdy`);
  });
});
