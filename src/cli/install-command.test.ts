import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runCli } from "../../test/support/cli-harness.ts";

let home: string;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "install-cli-"));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("brigade install / uninstall <client>", () => {
  test("an unknown or missing client is a usage error that suggests the nearest and never repeats the text", async () => {
    const typo = await runCli(["install", "gemnii"], "", { HOME: home });
    expect(typo.status).toBe(2);
    expect(typo.stderr).toBe(
      'brigade install: usage: brigade install <gemini|codex|qwen|cline|opencode>; did you mean "gemini"?\n',
    );
    const hostile = await runCli(["install", "\u001b]0;pwn\u0007"], "", { HOME: home });
    expect(hostile.status).toBe(2);
    expect(hostile.stderr).not.toContain("pwn");
    expect((await runCli(["install"], "", { HOME: home })).status).toBe(2);
  });

  test("refused inside any agent session: Claude Code's or Gemini CLI's", async () => {
    for (const env of [
      { CLAUDECODE: "1" },
      { GEMINI_CLI: "1" },
      { GEMINI_SESSION_ID: "9486b714" },
    ]) {
      const run = await runCli(["install", "gemini"], "", { HOME: home, ...env });
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/run it in your own terminal/);
      const undo = await runCli(["uninstall", "gemini"], "", { HOME: home, ...env });
      expect(undo.status).toBe(2);
    }
    expect(existsSync(join(home, ".gemini"))).toBe(false);
  });

  test("refused inside a Codex session: the variables Codex gives its model's commands", async () => {
    for (const name of ["CODEX_THREAD_ID", "CODEX_SESSION_ID", "CODEX_TOOL_CALL_ID"]) {
      for (const command of ["install", "uninstall"]) {
        const run = await runCli([command, "codex"], "", { HOME: home, [name]: "01a2" });
        expect(run.status).toBe(2);
        expect(run.stderr).toMatch(/run it in your own terminal/);
      }
    }
    expect(existsSync(join(home, ".codex"))).toBe(false);
  });

  test("refused inside a Qwen Code session: the variable Qwen Code gives its hooks and tools", async () => {
    for (const command of ["install", "uninstall"]) {
      const run = await runCli([command, "qwen"], "", { HOME: home, QWEN_CODE_SESSION_ID: "d2db" });
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/run it in your own terminal/);
    }
    expect(existsSync(join(home, ".qwen"))).toBe(false);
  });

  test("refused inside a Cline task: the pagers Cline gives its model's commands", async () => {
    const model = { PAGER: "cat", GIT_PAGER: "cat", MANPAGER: "cat", SYSTEMD_PAGER: "" };
    for (const command of ["install", "uninstall"]) {
      const run = await runCli([command, "cline"], "", { HOME: home, ...model });
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/run it in your own terminal/);
    }
    expect(existsSync(join(home, ".cline"))).toBe(false);
  });

  test("refused inside an OpenCode session: the variables OpenCode gives its model's commands", async () => {
    for (const variables of [{ OPENCODE_PID: "4410" }, { OPENCODE: "1" }]) {
      for (const command of ["install", "uninstall"]) {
        const run = await runCli([command, "opencode"], "", { HOME: home, ...variables });
        expect(run.status).toBe(2);
        expect(run.stderr).toMatch(/run it in your own terminal/);
      }
    }
    expect(existsSync(join(home, ".config", "opencode"))).toBe(false);
  });

  test("install then uninstall in the person's terminal", async () => {
    const run = await runCli(["install", "gemini"], "", { HOME: home });
    expect(run.status, run.stderr).toBe(0);
    expect(existsSync(join(home, ".gemini", "extensions", "brigade", "hooks", "hooks.json"))).toBe(
      true,
    );
    const undo = await runCli(["uninstall", "gemini"], "", { HOME: home });
    expect(undo.status, undo.stderr).toBe(0);
    expect(existsSync(join(home, ".gemini", "extensions", "brigade"))).toBe(false);
  });
});

describe("brigade host-hook", () => {
  test("always exit 0 and a JSON document: unknown client, unknown event, bad stdin, an unbound session", async () => {
    for (const [argv, stdin] of [
      [["host-hook", "nope", "turn"], "{}"],
      [["host-hook", "gemini", "nope"], "{}"],
      [["host-hook"], ""],
      [["host-hook", "gemini", "turn"], "not json"],
      [["host-hook", "gemini", "turn"], JSON.stringify({ session_id: "never-bound", cwd: home })],
      [["host-hook", "gemini", "session-start"], JSON.stringify({ session_id: "s", cwd: home })],
      [["host-hook", "codex", "nope"], "{}"],
      [["host-hook", "codex", "turn"], "[1]"],
      [["host-hook", "codex", "post-tool"], JSON.stringify({ session_id: "unbound", cwd: home })],
      [["host-hook", "codex", "session-end"], JSON.stringify({ session_id: "unbound" })],
      [["host-hook", "codex", "session-start"], JSON.stringify({ session_id: "s", cwd: home })],
    ] as const) {
      const run = await runCli([...argv], stdin, {
        HOME: home,
        XDG_STATE_HOME: join(home, "state"),
      });
      expect(run.status).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({});
    }
  });
});
