import { describe, expect, test } from "vitest";
import { insideAgentSession } from "../harness/host-clients.ts";
import type { CliIo } from "./cli-io.ts";
import {
  DASHBOARD_IN_SESSION_LINE,
  DASHBOARD_NO_TERMINAL_LINE,
  runDashboard,
} from "./dashboard-command.ts";

async function run(
  argv: string[],
  env: Record<string, string>,
  terminal = true,
  agentAbove: string | undefined = undefined,
) {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdin: (async function* () {})(),
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env,
    terminal: { stdin: terminal, stdout: terminal },
    // As in the person's own terminal, whatever runs these tests.
    agentAbove: () => agentAbove,
  };
  const status = await runDashboard(argv, io);
  return { status, stdout, stderr };
}

describe("brigade dashboard", () => {
  test.each([
    ["CLAUDE_PID", "4242"],
    ["CLAUDECODE", "1"],
    ["GEMINI_CLI", "1"],
    ["CODEX_THREAD_ID", "t-1"],
    ["QWEN_CODE_SESSION_ID", "q-1"],
    ["CODEX_SESSION_ID", "c-1"],
  ])("refuses inside an agent session (%s), asking nothing", async (name, value) => {
    // A configuration folder that does not exist: a refusal that looked for the team would say so.
    const result = await run([], { [name]: value, BRIGADE_CONFIG_DIR: "/nonexistent/brigade" });
    expect(result).toEqual({ status: 2, stdout: "", stderr: DASHBOARD_IN_SESSION_LINE });
  });

  test("refuses beneath a coding agent's process, in a terminal with no marker, asking nothing", async () => {
    const result = await run([], { BRIGADE_CONFIG_DIR: "/nonexistent/brigade" }, true, "gemini");
    expect(result).toEqual({ status: 2, stdout: "", stderr: DASHBOARD_IN_SESSION_LINE });
  });

  test("refuses without a terminal (a pipe, a script, an agent's shell tool), asking nothing", async () => {
    const result = await run([], { BRIGADE_CONFIG_DIR: "/nonexistent/brigade" }, false);
    expect(result).toEqual({ status: 2, stdout: "", stderr: DASHBOARD_NO_TERMINAL_LINE });
  });

  test("an empty variable is no session; no team for the folder is exit 11", async () => {
    expect(insideAgentSession({ CLAUDE_PID: "", GEMINI_CLI: "" })).toBe(false);
    const result = await run(["--no-open"], {
      CLAUDE_PID: "",
      BRIGADE_CONFIG_DIR: "/nonexistent/b",
    });
    expect(result.status).toBe(11);
    expect(result.stderr).toMatch(/^brigade dashboard: /);
  });

  test("--help says it is a person's act and what the link does", async () => {
    const result = await run(["--help"], {});
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("works once, for 5 minutes");
    expect(result.stdout).toContain("refused inside an agent session");
  });
});
