// The recipient for bench/real-client.bench.mjs: the real OpenCode TUI under tmux with `--port`
// after `brigade install opencode`, whose session start (at the person's first prompt) starts the
// push lane (as test/real-opencode.suite.ts), and a loopback fake of the OpenAI-compatible chat API.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The binding file the session start of OpenCode process `pid` wrote, once written. */
function binding(person, pid) {
  const folder = join(person.stateDir, "sessions", "by-harness", "opencode");
  try {
    for (const name of readdirSync(folder)) {
      const b = JSON.parse(readFileSync(join(folder, name), "utf8"));
      if (b.claude_pid === pid) return b;
    }
  } catch {
    // not written yet
  }
  return undefined;
}

/**
 * Starts `person`'s OpenCode (BENCH_OPENCODE_VERSION or the pinned one). Resolves with the
 * recipient contract of bench/real-client.bench.mjs.
 */
export async function startOpenCode({ person, load, until }) {
  const executables = await load("test/support/real-opencode/opencode-executable.ts");
  const { FakeOpenCodeModel } = await load("test/support/real-opencode/fake-opencode-model.ts");
  const { startOpenCodeTui } = await load("test/support/real-opencode/opencode-tui.ts");
  const { lanesGone } = await load("test/support/real-qwen/lanes-gone.ts");
  const { terminal } = await load("test/support/real-gemini/gemini-person.ts");
  const version = process.env.BENCH_OPENCODE_VERSION ?? executables.PINNED_OPENCODE_VERSION;
  const executable = await executables.openCodeExecutable(version);
  const installed = await terminal(person, ["install", "opencode"]);
  if (installed.code !== 0) throw new Error(`brigade install opencode: ${installed.stderr}`);
  const model = await FakeOpenCodeModel.start();
  const dir = mkdtempSync(join(tmpdir(), "o-"));
  let tui;
  async function close() {
    await tui?.tmux.close();
    await lanesGone(person.stateDir);
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  }
  try {
    tui = await startOpenCodeTui(executable, dir, model, {
      home: person.home,
      project: person.checkout,
      env: person.env,
    });
    // The person's first prompt makes the session; its start binds it and starts the push lane.
    await tui.tmux.type("hello");
    await tui.tmux.keys("Enter");
    await until(() => model.requests().length >= 1, 60_000, "OpenCode's first request");
    await until(() => binding(person, tui.tmux.pid) !== undefined, 30_000, "the binding file");
    await until(
      () => existsSync(join(person.stateDir, "watchers", `${tui.tmux.pid}.json`)),
      30_000,
      "the push lane's pidfile",
    );
  } catch (error) {
    await close();
    throw error;
  }
  const bound = binding(person, tui.tmux.pid);
  return {
    version,
    package: `opencode-linux-x64@${version}`,
    mode: "interactive TUI under tmux with --port after `brigade install opencode`, a loopback fake of the OpenAI-compatible chat API; push through its server (prompt_async)",
    sessionId: bound.brigade_session_id,
    teamKey: bound.team_key,
    mark: () => model.requests().length,
    arrival(tag, from) {
      const requests = model.requests();
      for (let i = from; i < requests.length; i++)
        if (JSON.stringify(requests[i]).includes(tag)) return model.arrivals()[i];
      return undefined;
    },
    // OpenCode's server lists only busy sessions in /session/status.
    waitIdle: (ms) =>
      until(
        async () => JSON.stringify(await tui.get("/session/status")) === "{}",
        ms,
        "OpenCode idle",
        200,
      ),
    screen: () => tui.tmux.pane(),
    close,
  };
}
