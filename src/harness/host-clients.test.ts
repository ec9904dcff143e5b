import { describe, expect, test } from "vitest";
import {
  agentClientAbove,
  CLIENT_COMMAND_ENVS,
  CLIENT_PROCESS_SIGNATURES,
  CLIENT_SESSION_VARIABLES,
  HOST_CLIENTS,
  insideAgentSession,
} from "./host-clients.ts";
import { type ProcessEntry, processClient } from "./host-session/index.ts";

describe("insideAgentSession", () => {
  test("every client's own markers are in the list, and the list marks nothing else", async () => {
    for (const [name, load] of Object.entries(HOST_CLIENTS)) {
      const client = await load();
      const own = CLIENT_SESSION_VARIABLES.filter((v) => client.insideSession({ [v]: "1" }));
      const ownEnvs = CLIENT_COMMAND_ENVS.filter((marks) => client.insideSession(marks));
      expect(own.length + ownEnvs.length, name).toBeGreaterThan(0);
      expect(client.insideSession({}), name).toBe(false);
    }
    for (const variable of CLIENT_SESSION_VARIABLES) {
      const clients = await Promise.all(Object.values(HOST_CLIENTS).map((load) => load()));
      expect(
        clients.some((c) => c.insideSession({ [variable]: "1" })),
        variable,
      ).toBe(true);
    }
  });

  test("Claude Code's four variables and each client's mark a session; empty values do not", () => {
    for (const variable of [
      "CLAUDE_PID",
      "CLAUDECODE",
      "CLAUDE_CODE_ENTRYPOINT",
      "CLAUDE_CODE_SESSION_ID",
      ...CLIENT_SESSION_VARIABLES,
    ]) {
      expect(insideAgentSession({ [variable]: "1" }), variable).toBe(true);
      expect(insideAgentSession({ [variable]: "" }), variable).toBe(false);
    }
    expect(insideAgentSession({ HOME: "/home/dana", PATH: "/usr/bin" })).toBe(false);
  });

  test("a client's model shell marked by its values together (Cline's pagers): all of them, not one", () => {
    for (const marks of CLIENT_COMMAND_ENVS) {
      expect(insideAgentSession({ ...marks })).toBe(true);
      for (const name of Object.keys(marks)) {
        expect(insideAgentSession({ ...marks, [name]: undefined }), name).toBe(false);
      }
    }
    expect(insideAgentSession({ PAGER: "cat" })).toBe(false);
  });
});

/** `argv` as `/proc/<pid>/cmdline` holds it, `comm` as `/proc/<pid>/comm`. */
function look(comm: string, ...argv: string[]) {
  return { comm, argv };
}

describe("the clients' process signatures", () => {
  test("every listed client declares the signature the list holds for it", async () => {
    for (const [name, load] of Object.entries(HOST_CLIENTS)) {
      expect((await load()).processSignature, name).toBe(CLIENT_PROCESS_SIGNATURES[name]);
    }
    expect(Object.keys(CLIENT_PROCESS_SIGNATURES).sort()).toEqual(
      ["claude-code", ...Object.keys(HOST_CLIENTS)].sort(),
    );
  });

  test.each([
    // Measured under tmux (each client's facts say the version).
    ["claude-code", look("claude", "/home/dana/.local/bin/claude")],
    ["claude-code", look("2.1.336", "/home/dana/.local/share/claude/versions/2.1.336")],
    ["claude-code", look("claude", "claude", "--resume")],
    ["claude-code", look("node", "node", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js")],
    ["gemini", look("node", "node", "/usr/local/bin/gemini")],
    [
      "gemini",
      look(
        "node",
        "/usr/bin/node",
        "--max-old-space-size=12052",
        "/usr/lib/node_modules/@google/gemini-cli/bundle/gemini.js",
      ),
    ],
    ["codex", look("codex", "/usr/lib/node_modules/@openai/codex/vendor/x86_64/codex/codex")],
    [
      "codex",
      look(
        "codex",
        "/home/dana/.codex/packages/app-server-daemon/releases/0.171.0-x86_64-unknown-linux-musl/bin/codex",
        "app-server",
        "--listen",
        "unix://",
        "--managed-daemon",
      ),
    ],
    ["codex", look("node", "node", "/usr/lib/node_modules/@openai/codex/bin/codex.js")],
    // Pid 1 of a sandboxed command's PID namespace.
    [
      "codex",
      look(
        "codex",
        "codex-linux-sandbox",
        "--sandbox-policy-cwd",
        "/w/api",
        "--command-cwd",
        "/w/api",
      ),
    ],
    ["qwen", look("node", "node", "/usr/local/bin/qwen")],
    [
      "qwen",
      look(
        "node",
        "/usr/bin/node",
        "--expose-gc",
        "/usr/lib/node_modules/@qwen-code/qwen-code/cli.js",
      ),
    ],
    ["cline", look("node", "node", "/usr/lib/node_modules/cline/dist/cli.mjs")],
    ["cline", look("node", "node", "/home/dana/.npm-global/bin/cline", "task")],
    ["opencode", look("opencode", "/usr/lib/node_modules/opencode-linux-x64/bin/opencode")],
    ["opencode", look("node", "node", "/usr/lib/node_modules/opencode-ai/bin/opencode")],
  ])("%s: %j", (client, process) => {
    expect(processClient(process, CLIENT_PROCESS_SIGNATURES)).toBe(client);
  });

  test.each([
    look("bash", "bash"),
    look("bash", "-bash"),
    look("zsh", "-zsh"),
    look("fish", "fish", "-l"),
    look("tmux: server", "tmux", "new-session", "-s", "claude"),
    look("tmux: client", "tmux", "attach", "-t", "gemini"),
    look("sshd", "sshd: dana@pts/0"),
    look("sshd", "/usr/sbin/sshd", "-D"),
    look("vim", "vim", "/usr/lib/node_modules/@google/gemini-cli/bundle/gemini.js"),
    look("nvim", "nvim", "claude.md"),
    look("code", "/usr/share/code/code", "--type=zygote"),
    look("node", "node", "/home/dana/src/api/server.js", "--name", "codex"),
    look("node", "node", "/usr/lib/node_modules/npm/bin/npm-cli.js", "install", "@openai/codex"),
    look("node", "/home/dana/.local/bin/brigade", "send", "--as-me", "s-1", "claude"),
    look("screen", "SCREEN", "-S", "opencode"),
    look("login", "/bin/login", "-p", "--"),
    look("systemd", "/lib/systemd/systemd", "--user"),
    look("claude-notes", "/home/dana/bin/claude-notes"),
  ])("not a client: %j", (process) => {
    expect(processClient(process, CLIENT_PROCESS_SIGNATURES)).toBeUndefined();
  });

  test("agentClientAbove walks the injected table from the given pid", () => {
    const table = new Map<number, ProcessEntry>([
      [300, { ppid: 200, comm: "node", argv: ["node", "/x/brigade"] }],
      [200, { ppid: 100, comm: "bash", argv: ["bash", "-c", "brigade"] }],
      [100, { ppid: 1, comm: "claude", argv: ["claude"] }],
    ]);
    expect(agentClientAbove(300, (pid) => table.get(pid))).toBe("claude-code");
    table.set(100, { ppid: 1, comm: "zsh", argv: ["-zsh"] });
    expect(agentClientAbove(300, (pid) => table.get(pid))).toBeUndefined();
  });
});
