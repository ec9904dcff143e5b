/**
 * One interactive Codex session reachable through its app-server, for the push-lane tests
 * (docs/49-codex.md "The push lane"): a private Codex home whose `config.toml` points at the
 * loopback fake of the Responses API, `codex app-server --listen unix://` (what the interactive
 * client's managed daemon runs, without its 424 MB copy of the package), and the interactive client
 * under tmux as that app-server's client (`codex --remote unix://`), started with a first prompt
 * so its thread exists.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CodexAppServer } from "../../../src/harness/codex/codex-app-server.ts";
import { waitFor } from "../plugin-world.ts";
import { TmuxClaude } from "../real-claude/index.ts";
import type { FakeResponsesApi } from "./fake-responses-api.ts";

/** The variable that carries the fake API's dummy key (`env_key` of the provider). */
const KEY_VARIABLE = "BRIGADE_TEST_FAKE_OPENAI_KEY";

/** A running Codex app-server with the interactive client on it. */
export interface CodexTui {
  readonly tmux: TmuxClaude;
  /** `CODEX_HOME`. */
  readonly codexHome: string;
  /** The folder the session works in. */
  readonly project: string;
  /** The file the thread's hooks append to (its SessionStart parent pid, then `end`). */
  readonly hookOutput: string;
  /** The environment Codex ran with. */
  readonly env: Readonly<Record<string, string>>;
  /** The app-server process (the one that serves the thread and would run its hooks). */
  readonly appServer: ChildProcess;
  /** Its control socket (`$CODEX_HOME/app-server-control/app-server-control.sock`). */
  readonly socketPath: string;
  /** The interactive session's thread (the one holding the first prompt). */
  readonly threadId: string;
  /**
   * The parent pid a SessionStart hook of the thread saw (`$PPID`): the Codex process Brigade's
   * hooks record as the session's host.
   */
  readonly hookParentPid: number;
  /** Stops the client and the app-server. */
  close(): Promise<void>;
}

/**
 * Codex's home for the fake: the model provider `fake`, `project` trusted (no trust prompt), and a
 * thread unloaded 1 s after its last client left (`thread_unload_delay_secs`); with `hookOutput`,
 * a SessionStart hook that appends its parent pid to that file and a SessionEnd hook that appends
 * `end`.
 */
export function writeCodexHome(
  codexHome: string,
  api: FakeResponsesApi,
  project: string,
  hookOutput?: string,
): void {
  mkdirSync(codexHome, { recursive: true, mode: 0o700 });
  writeFileSync(
    join(codexHome, "config.toml"),
    [
      "thread_unload_delay_secs = 1",
      'model = "fake-model"',
      'model_provider = "fake"',
      "",
      "[model_providers.fake]",
      'name = "Loopback fake of the Responses API"',
      `base_url = "${api.url}/v1"`,
      'wire_api = "responses"',
      `env_key = "${KEY_VARIABLE}"`,
      "",
      `[projects."${project}"]`,
      'trust_level = "trusted"',
      "",
      ...(hookOutput === undefined
        ? []
        : [
            "[[hooks.SessionStart]]",
            "[[hooks.SessionStart.hooks]]",
            'type = "command"',
            `command = "echo $PPID >> '${hookOutput}'"`,
            "timeout = 10",
            "",
            "[[hooks.SessionEnd]]",
            "[[hooks.SessionEnd.hooks]]",
            'type = "command"',
            `command = "echo end >> '${hookOutput}'"`,
            "timeout = 10",
            "",
          ]),
    ].join("\n"),
    { mode: 0o600 },
  );
}

/**
 * The person's `/hooks` trust of the test's hook, through the app-server (`hooks/list`, then
 * `config/batchWrite` of the `currentHash` Codex reported), as test/support/real-codex/codex-person.ts does.
 */
export async function trustHooks(socketPath: string, project: string): Promise<void> {
  const opened = await CodexAppServer.open(socketPath, "brigade-test-trust");
  if (!opened.ok) throw new Error(`cannot open the app-server: ${opened.reason}`);
  try {
    const listed = await opened.server.call("hooks/list", { cwds: [project] });
    if (!listed.ok) throw new Error(`hooks/list: ${listed.reason}`);
    const entry = (listed.result.data as { hooks: { key: string; currentHash: string }[] }[])[0];
    const state = Object.fromEntries(
      (entry?.hooks ?? []).map((hook) => [hook.key, { trusted_hash: hook.currentHash }]),
    );
    const written = await opened.server.call("config/batchWrite", {
      edits: [{ keyPath: "hooks.state", value: state, mergeStrategy: "upsert" }],
    });
    if (!written.ok) throw new Error(`config/batchWrite: ${written.reason}`);
  } finally {
    opened.server.close();
  }
}

/** The loaded thread whose record holds a user message with `text`, if any. */
async function threadHolding(server: CodexAppServer, text: string): Promise<string | undefined> {
  const loaded = await server.call("thread/loaded/list", {});
  const ids = loaded.ok && Array.isArray(loaded.result.data) ? loaded.result.data : [];
  for (const id of ids) {
    if (typeof id !== "string") continue;
    const turns = await server.call("thread/turns/list", {
      threadId: id,
      limit: 5,
      itemsView: "full",
    });
    if (turns.ok && JSON.stringify(turns.result.data).includes(JSON.stringify(text))) return id;
  }
  return undefined;
}

/**
 * Starts the app-server and the interactive client with `firstPrompt` in `dir/project` (home
 * `dir/home`); resolves once the client's first turn is in the record and its prompt is back.
 */
export async function startCodexTui(
  executable: string,
  dir: string,
  api: FakeResponsesApi,
  firstPrompt: string,
): Promise<CodexTui> {
  const home = join(dir, "home");
  const codexHome = join(home, ".codex");
  const project = join(dir, "project");
  const tmp = join(dir, "tmp");
  for (const folder of [home, project, tmp]) mkdirSync(folder, { recursive: true, mode: 0o700 });
  const hookOutput = join(dir, "hook-parent.txt");
  writeCodexHome(codexHome, api, project, hookOutput);
  const env: Record<string, string> = {
    HOME: home,
    CODEX_HOME: codexHome,
    TMPDIR: tmp,
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    LANG: "C.UTF-8",
    [KEY_VARIABLE]: "sk-fake-loopback",
  };
  const appServer = spawn(executable, ["app-server", "--listen", "unix://"], {
    cwd: project,
    env,
    stdio: ["ignore", "ignore", "ignore"],
  });
  const socketPath = join(codexHome, "app-server-control", "app-server-control.sock");
  let tmux: TmuxClaude | undefined;
  const close = async (): Promise<void> => {
    await tmux?.close();
    if (appServer.exitCode === null && appServer.signalCode === null) {
      const exited = new Promise((resolve) => appServer.once("exit", resolve));
      appServer.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3_000))]);
      if (appServer.exitCode === null && appServer.signalCode === null) appServer.kill("SIGKILL");
    }
  };
  try {
    await waitFor(() => existsSync(socketPath), 30_000, "the app-server's control socket");
    await trustHooks(socketPath, project);
    tmux = await TmuxClaude.start({
      executable,
      args: ["--remote", "unix://", firstPrompt],
      cwd: project,
      env,
      dir,
      columns: 160,
      rows: 40,
    });
    const opened = await CodexAppServer.open(socketPath, "brigade-test");
    if (!opened.ok) throw new Error(`cannot open the app-server: ${opened.reason}`);
    let threadId: string | undefined;
    try {
      await waitFor(
        async () => {
          threadId = await threadHolding(opened.server, firstPrompt);
          return threadId !== undefined;
        },
        30_000,
        "the interactive thread with the first prompt",
      );
    } finally {
      opened.server.close();
    }
    await tmux.waitForPane(/Noted\./, 30_000, "the answer to the first prompt");
    const hookParentPid = Number(readFileSync(hookOutput, "utf8").trim().split("\n")[0]);
    return {
      tmux,
      codexHome,
      project,
      env,
      appServer,
      socketPath,
      threadId: threadId as string,
      hookParentPid,
      hookOutput,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
