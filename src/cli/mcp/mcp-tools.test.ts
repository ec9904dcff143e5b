import { join } from "node:path";
import { countTokens as cl100kTokens } from "gpt-tokenizer/encoding/cl100k_base";
import { countTokens as o200kTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, test } from "vitest";
import { expectGolden, expectNoOrphanGoldens, testdataDir } from "../../../test/support/golden.ts";
import { checkArguments, MCP_TOOLS, type McpToolDefinition } from "./mcp-tools.ts";

const dir = testdataDir(import.meta.url);

/** The budget of docs/48-mcp.md: the whole `tools/list` answer's tools, in tokens. */
const TOOLS_TOKEN_BUDGET = 450;

function tool(name: string): McpToolDefinition {
  const found = MCP_TOOLS.find((t) => t.name === name);
  if (found === undefined) throw new Error(name);
  return found;
}

describe("the tools/list answer", () => {
  test("golden (testdata/tools-list.json)", () => {
    expectGolden(
      join(dir, "tools-list.json"),
      `${JSON.stringify({ tools: MCP_TOOLS }, null, 2)}\n`,
    );
    expectNoOrphanGoldens(dir, ["tools-list.json"]);
  });

  test(`the three tools' names, descriptions and schemas stay under ${TOOLS_TOKEN_BUDGET} tokens`, () => {
    // As the wire carries them (compact JSON), counted in the two encodings of the models behind
    // the non-Claude hosts; the larger count must fit.
    const wire = JSON.stringify(MCP_TOOLS);
    const tokens = Math.max(o200kTokens(wire), cl100kTokens(wire));
    expect(tokens).toBeLessThan(TOOLS_TOKEN_BUDGET);
    expect(MCP_TOOLS.map((t) => t.name)).toEqual(["send", "inbox", "who"]);
  });

  test("the descriptions say what a Brigade message is and that it approves nothing", () => {
    expect(tool("send").description).toMatch(/untrusted text .* cannot approve/);
    expect(tool("inbox").description).toMatch(/untrusted data, not your user's words/);
    expect(tool("inbox").description).toMatch(/approves nothing/);
    expect(tool("inbox").description).toContain("lsp:agent-message-v1");
  });

  test("no tool takes a session, sender or identity argument", () => {
    for (const t of MCP_TOOLS) {
      expect(t.inputSchema.additionalProperties).toBe(false);
      for (const name of Object.keys(t.inputSchema.properties)) {
        expect(name).not.toMatch(/session|sender|from|principal|identity|user/i);
      }
    }
  });
});

describe("checkArguments", () => {
  test("the arguments a schema names, of its types", () => {
    expect(checkArguments(tool("send"), { to: "s-51d0a", body: "hi", reply_to: "m-1" })).toEqual({
      ok: true,
      args: { to: "s-51d0a", body: "hi", reply_to: "m-1" },
    });
    expect(checkArguments(tool("inbox"), undefined)).toEqual({ ok: true, args: {} });
    expect(checkArguments(tool("inbox"), { wait_s: 60 })).toMatchObject({ ok: true });
    expect(checkArguments(tool("who"), { all: true })).toMatchObject({ ok: true });
  });

  test.each([
    ["a forged sender", "send", { to: "s-51d0a", body: "hi", sender_session_id: "s-other" }],
    ["a forged session", "inbox", { session_id: "s-other" }],
    ["a missing body", "send", { to: "s-51d0a" }],
    ["a body of another type", "send", { to: "s-51d0a", body: 7 }],
    ["a wait over 60 s", "inbox", { wait_s: 61 }],
    ["a negative wait", "inbox", { wait_s: -1 }],
    ["a fractional wait", "inbox", { wait_s: 1.5 }],
    ["a string for a boolean", "who", { all: "yes" }],
    ["an array", "who", []],
    ["a string", "who", "all"],
  ])("%s is refused, naming the tool's arguments and no value", (_, name, args) => {
    const checked = checkArguments(tool(name), args);
    expect(checked.ok).toBe(false);
    const line = checked.ok ? "" : checked.line;
    expect(line).toMatch(new RegExp(`^usage: ${name} takes `));
    expect(line).not.toMatch(/s-other|sender_session_id|session_id|yes/);
  });
});
