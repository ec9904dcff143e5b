/**
 * A teammate's interactive Codex session with its push lane, as docs/49-codex.md "The push lane"
 * says a person starts one: `brigade install codex` in the person's terminal, the checkout
 * trusted, `codex app-server --listen unix://`, the person's `/hooks` trust, then the interactive
 * client on that app-server (`codex --remote unix://`) with a first prompt, whose start hook binds
 * the session and starts the lane.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { harnessBinding } from "../harness-binding.ts";
import { type Person, waitFor } from "../plugin-world.ts";
import { TmuxClaude } from "../real-claude/index.ts";
import { codexHomeFor, personCli } from "./codex-person.ts";
import { trustHooks } from "./codex-tui.ts";
import type { FakeResponsesApi } from "./fake-responses-api.ts";

/** What the session start bound: the Brigade session, Codex's thread and the team. */
export interface CodexLiveBinding {
  readonly brigade: string;
  readonly thread: string;
  readonly teamRef: string;
}

/** A person's live Codex session. */
export interface CodexLive {
  readonly tmux: TmuxClaude;
  /** The app-server's control socket (to read the thread's own record). */
  readonly socketPath: string;
  readonly binding: CodexLiveBinding;
  /** Stops the client and the app-server (SIGTERM, up to 5 s). */
  close(): Promise<void>;
}

/** The Brigade session and thread `who`'s Codex session bound at its start (its binding file). */
export function codexLiveBinding(who: Person): CodexLiveBinding | undefined {
  const bound = harnessBinding(who, "codex");
  return bound === undefined
    ? undefined
    : {
        brigade: bound.brigade_session_id,
        thread: bound.claude_session_id,
        teamRef: bound.team_ref,
      };
}

/**
 * Starts `who`'s live Codex session from `executable` in the person's checkout against `api`
 * (`dir` holds the tmux server); resolves once the session is bound and the model's answer to
 * `"first prompt"` (the fake's default reply, `Noted.`) is on screen. Throws when `brigade
 * install codex` fails; rejects after 60 s per wait.
 */
export async function startCodexLive(
  executable: string,
  who: Person,
  api: FakeResponsesApi,
  dir: string,
): Promise<CodexLive> {
  const home = codexHomeFor(who, api);
  appendFileSync(home.configFile, `\n[projects."${who.checkout}"]\ntrust_level = "trusted"\n`);
  const installed = await personCli(who.checkout, home.env, ["install", "codex"]);
  if (installed.code !== 0) throw new Error(`brigade install codex: ${installed.stderr}`);
  const appServer: ChildProcess = spawn(executable, ["app-server", "--listen", "unix://"], {
    cwd: who.checkout,
    env: home.env,
    stdio: ["ignore", "ignore", "ignore"],
  });
  const stopServer = async (): Promise<void> => {
    if (appServer.exitCode !== null || appServer.signalCode !== null) return;
    const exited = new Promise((r) => appServer.once("exit", r));
    appServer.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
  };
  let tmux: TmuxClaude | undefined;
  try {
    const socketPath = join(home.dir, "app-server-control", "app-server-control.sock");
    await waitFor(() => existsSync(socketPath), 30_000, "the app-server's control socket");
    await trustHooks(socketPath, who.checkout);
    tmux = await TmuxClaude.start({
      executable,
      args: ["--remote", "unix://", "first prompt"],
      cwd: who.checkout,
      env: home.env,
      dir,
      columns: 160,
      rows: 40,
    });
    await waitFor(() => codexLiveBinding(who) !== undefined, 60_000, "the Codex binding file");
    const binding = codexLiveBinding(who) as CodexLiveBinding;
    await tmux.waitForPane(/Noted\./, 60_000, "the answer to the first prompt");
    const started = tmux;
    return {
      tmux: started,
      socketPath,
      binding,
      close: async () => {
        await started.close();
        await stopServer();
      },
    };
  } catch (error) {
    await tmux?.close();
    await stopServer();
    throw error;
  }
}
