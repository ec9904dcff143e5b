import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { parseHostHookInput as parseCodexHookInput } from "../host-session/index.ts";
import { codexVersionOf } from "./codex-version.ts";

describe("a Codex hook's stdin, through parseHostHookInput", () => {
  test("reads the members Brigade uses from a hook's stdin as Codex 0.171.0 writes it", () => {
    const stdin = JSON.stringify({
      session_id: "01a24373-dcb0-7aa1-8b5c-e2773f326033",
      turn_id: "01a24373-dcd0-7b12-a747-b5e439a48259",
      transcript_path: "/home/lee/.codex/sessions/2026/12/04/rollout-x.jsonl",
      cwd: "/home/lee/src/billing",
      hook_event_name: "PostToolUse",
      tool_name: "mcp__brigade__inbox",
      tool_input: { wait_s: 0 },
    });
    expect(parseCodexHookInput(stdin)).toEqual({
      sessionId: "01a24373-dcb0-7aa1-8b5c-e2773f326033",
      cwd: "/home/lee/src/billing",
      transcriptPath: "/home/lee/.codex/sessions/2026/12/04/rollout-x.jsonl",
      cause: "",
      toolName: "mcp__brigade__inbox",
    });
  });

  test("a wrong type, a relative path or a control character reads as empty; not an object is undefined", () => {
    expect(
      parseCodexHookInput(
        JSON.stringify({
          session_id: 7,
          cwd: "rel/dir",
          transcript_path: "/a\nb",
          tool_name: "x\u001b",
        }),
      ),
    ).toEqual({ sessionId: "", cwd: "", transcriptPath: "", cause: "", toolName: "" });
    for (const bad of ["", "[]", "null", "{", '"s"'])
      expect(parseCodexHookInput(bad)).toBeUndefined();
  });
});

describe("codexVersionOf", () => {
  let root: string | undefined;
  afterEach(() => {
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  test("the version of codex-package.json beside the executable's bin folder, else unknown", async () => {
    root = mkdtempSync(join(tmpdir(), "codex-version-"));
    const bin = join(root, "vendor", "x86_64-unknown-linux-musl", "bin");
    mkdirSync(bin, { recursive: true });
    const program = join(bin, "codex");
    copyFileSync("/bin/sleep", program);
    writeFileSync(
      join(root, "vendor", "x86_64-unknown-linux-musl", "codex-package.json"),
      JSON.stringify({ layoutVersion: 1, version: "0.171.0", entrypoint: "bin/codex" }),
    );
    const child = spawn(program, ["30"], { stdio: "ignore" });
    try {
      await new Promise((resolve) => child.once("spawn", resolve));
      expect(codexVersionOf(child.pid ?? 0)).toBe("0.171.0");
    } finally {
      child.kill("SIGKILL");
    }
    expect(codexVersionOf(process.pid)).toBe("unknown");
    expect(codexVersionOf(2 ** 22 + 17)).toBe("unknown");
  });
});
