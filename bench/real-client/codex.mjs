// The recipient for bench/real-client.bench.mjs: the real Codex after `brigade install codex`, its
// interactive client under tmux on an app-server (`codex app-server --listen unix://`, the client
// `codex --remote unix://`), whose start hook starts the push lane (as
// test/real-codex-push-live.suite.ts), and a loopback fake of the Responses API.
import { spawn } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The binding file Codex's SessionStart hook wrote for `person`, once written. */
function binding(person) {
  const folder = join(person.stateDir, "sessions", "by-harness", "codex");
  try {
    const name = readdirSync(folder).find((n) => n.endsWith(".json"));
    return name === undefined ? undefined : JSON.parse(readFileSync(join(folder, name), "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * Starts `person`'s Codex (BENCH_CODEX_VERSION or the pinned one). Resolves with the recipient
 * contract of bench/real-client.bench.mjs.
 */
export async function startCodex({ person, load, until }) {
  const executables = await load("test/support/real-codex/codex-executable.ts");
  const { codexHomeFor, personCli } = await load("test/support/real-codex/codex-person.ts");
  const { trustHooks } = await load("test/support/real-codex/codex-tui.ts");
  const { FakeResponsesApi } = await load("test/support/real-codex/fake-responses-api.ts");
  const { TmuxClaude } = await load("test/support/real-claude/index.ts");
  const { lanesGone } = await load("test/support/real-qwen/lanes-gone.ts");
  const { CodexAppServer } = await load("src/harness/codex/index.ts");
  const version = process.env.BENCH_CODEX_VERSION ?? executables.PINNED_CODEX_VERSION;
  const executable = await executables.codexExecutable(version);
  const api = await FakeResponsesApi.start();
  const home = codexHomeFor(person, api);
  appendFileSync(home.configFile, `\n[projects."${person.checkout}"]\ntrust_level = "trusted"\n`);
  const installed = await personCli(person.checkout, home.env, ["install", "codex"]);
  if (installed.code !== 0) throw new Error(`brigade install codex: ${installed.stderr}`);
  const appServer = spawn(executable, ["app-server", "--listen", "unix://"], {
    cwd: person.checkout,
    env: home.env,
    stdio: ["ignore", "ignore", "ignore"],
  });
  const socketPath = join(home.dir, "app-server-control", "app-server-control.sock");
  const dir = mkdtempSync(join(tmpdir(), "c-"));
  let tmux;
  async function close() {
    await tmux?.close();
    if (appServer.exitCode === null) {
      const exited = new Promise((r) => appServer.once("exit", r));
      appServer.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    }
    await lanesGone(person.stateDir);
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  }
  try {
    await until(() => existsSync(socketPath), 30_000, "the app-server's control socket");
    await trustHooks(socketPath, person.checkout);
    tmux = await TmuxClaude.start({
      executable,
      args: ["--remote", "unix://", "first prompt"],
      cwd: person.checkout,
      env: home.env,
      dir,
      columns: 160,
      rows: 40,
    });
    await until(() => binding(person) !== undefined, 60_000, "Codex's binding file");
    await tmux.waitForPane(/Noted\./, 60_000, "the answer to the first prompt");
  } catch (error) {
    await close();
    throw error;
  }
  const bound = binding(person);
  const thread = bound.claude_session_id;
  /** Whether no turn of the thread runs, read from the app-server (`thread/turns/list`). */
  async function idle() {
    const opened = await CodexAppServer.open(socketPath, "brigade-bench-observer");
    if (!opened.ok) return false;
    try {
      const turns = await opened.server.call("thread/turns/list", { threadId: thread, limit: 3 });
      return turns.ok && !JSON.stringify(turns.result.data).includes('"inProgress"');
    } finally {
      opened.server.close();
    }
  }
  return {
    version,
    package: `${executables.CODEX_PACKAGE}@${version}-linux-x64`,
    mode: "interactive client under tmux on `codex app-server --listen unix://` (`codex --remote unix://`) after `brigade install codex`, a loopback fake of the Responses API; push through the app-server (turn/start while idle)",
    sessionId: bound.brigade_session_id,
    teamKey: bound.team_key,
    mark: () => api.requests.length,
    arrival(tag, from) {
      return api.requests.slice(from).find((r) => r.turn && r.raw.includes(tag))?.at;
    },
    waitIdle: (ms) => until(idle, ms, "Codex's thread idle", 200),
    screen: () => tmux?.pane() ?? "",
    close,
  };
}
