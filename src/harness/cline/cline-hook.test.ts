import { describe, expect, test } from "vitest";
import { runClineHook } from "./cline-hook.ts";
import { clineHookDocument } from "./cline-hook-input.ts";
import { CLINE_CLIENT } from "./index.ts";

describe("Cline's hook documents", () => {
  test("the task id is the session, the first workspace root the folder, an MCP tool its server and tool", () => {
    const stdin = JSON.stringify({
      clineVersion: "3.82.0",
      hookName: "PostToolUse",
      taskId: "1796439362603",
      workspaceRoots: ["/w/api", "/w/web"],
      postToolUse: {
        toolName: "use_mcp_tool",
        parameters: { server_name: "brigade", tool_name: "inbox", arguments: "{}" },
        result: "x",
      },
    });
    expect(JSON.parse(clineHookDocument(stdin) as string)).toEqual({
      session_id: "1796439362603",
      cwd: "/w/api",
      tool_name: "use_mcp_tool/brigade/inbox",
    });
    const shell = JSON.stringify({
      taskId: "1",
      workspaceRoots: ["relative"],
      postToolUse: { toolName: "execute_command" },
    });
    expect(JSON.parse(clineHookDocument(shell) as string)).toEqual({
      session_id: "1",
      cwd: "",
      tool_name: "execute_command",
    });
    expect(clineHookDocument("[1]")).toBeUndefined();
    expect(clineHookDocument("not json")).toBeUndefined();
    const control = JSON.parse(clineHookDocument('{"taskId":"a\\nb"}') as string);
    expect(control.session_id).toBe("");
  });

  test("a document that cannot be read prints a hook output that never stops the task", async () => {
    const lines: string[] = [];
    const deps = {
      env: {},
      uid: 0,
      now: Date.now,
      ancestors: [],
      log: (l: string) => lines.push(l),
    };
    expect(await runClineHook("turn", "not json", deps)).toBe('{"cancel":false}');
    expect(await runClineHook("turn", '{"workspaceRoots":["/w"]}', deps)).toBe('{"cancel":false}');
    expect(lines).toEqual([
      "brigade host-hook cline: bad_input\n",
      "brigade host-hook cline: bad_input\n",
    ]);
  });

  test("a hook Cline 3 runs binds nothing: its sessions share one hub process", async () => {
    const lines: string[] = [];
    const deps = {
      env: {},
      uid: 0,
      now: Date.now,
      ancestors: [4000],
      log: (l: string) => lines.push(l),
    };
    const stdin = JSON.stringify({
      clineVersion: "",
      hookName: "agent_start",
      taskId: "conv_1796440222977_gygsten",
      workspaceRoots: ["/w/api"],
      taskStart: { taskMetadata: {} },
    });
    expect(await runClineHook("session-start", stdin, deps)).toBe('{"cancel":false}');
    expect(lines).toEqual(["brigade host-hook cline: unsupported_version\n"]);
  });

  test("a command a Cline model runs is inside a session; the person's terminal is not", () => {
    const model = {
      PAGER: "cat",
      GIT_PAGER: "cat",
      MANPAGER: "cat",
      SYSTEMD_PAGER: "",
      TERM: "xterm-256color",
    };
    expect(CLINE_CLIENT.insideSession(model)).toBe(true);
    expect(CLINE_CLIENT.insideSession({ ...model, SYSTEMD_PAGER: undefined })).toBe(false);
    expect(CLINE_CLIENT.insideSession({ PAGER: "less", TERM: "xterm-256color" })).toBe(false);
  });
});
