// The recipient for bench/real-client.bench.mjs: the real Qwen Code TUI under tmux after
// `brigade install qwen`, with the person's controller token handed to Brigade the documented way
// (`brigade qwen token`), so its push lane delivers through Qwen Code's peer socket (as
// test/real-qwen-live.suite.ts), and a loopback fake of the OpenAI-compatible chat API.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The binding file Qwen Code's SessionStart hook wrote for `person`, once written. */
function binding(person) {
  const folder = join(person.stateDir, "sessions", "by-harness", "qwen");
  try {
    const name = readdirSync(folder).find((n) => n.endsWith(".json"));
    return name === undefined ? undefined : JSON.parse(readFileSync(join(folder, name), "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * Starts `person`'s Qwen Code (BENCH_QWEN_VERSION or the pinned one). Resolves with the recipient
 * contract of bench/real-client.bench.mjs.
 */
export async function startQwenCode({ person, load, until }) {
  const { FakeChatApi } = await load("test/support/real-qwen/fake-chat-api.ts");
  const executable = await load("test/support/real-qwen/qwen-executable.ts");
  const { startQwenTui, closeQwenTui } = await load("test/support/real-qwen/qwen-tui.ts");
  const { lanesGone } = await load("test/support/real-qwen/lanes-gone.ts");
  const { terminal } = await load("test/support/real-gemini/gemini-person.ts");
  const version = process.env.BENCH_QWEN_VERSION ?? executable.PINNED_QWEN_VERSION;
  const script = await executable.qwenScript(version);
  const installed = await terminal(person, ["install", "qwen"]);
  if (installed.code !== 0) throw new Error(`brigade install qwen: ${installed.stderr}`);
  const api = await FakeChatApi.start();
  const dir = mkdtempSync(join(tmpdir(), "q-"));
  let tui;
  try {
    tui = await startQwenTui(script, dir, api, {
      home: person.home,
      project: person.checkout,
      env: person.env,
      beforeStart: async (token) => {
        const kept = await terminal(person, ["qwen", "token"], `${token}\n`);
        if (kept.code !== 0) throw new Error(`brigade qwen token: ${kept.stderr}`);
      },
    });
    await until(() => binding(person) !== undefined, 30_000, "Qwen Code's binding file");
  } catch (error) {
    await closeQwenTui(tui);
    await api.close();
    throw error;
  }
  const bound = binding(person);
  return {
    version,
    package: `@qwen-code/qwen-code@${version}`,
    mode: "interactive TUI under tmux after `brigade install qwen`, controller token given with `brigade qwen token`, a loopback fake of the OpenAI-compatible chat API; push through Qwen Code's peer socket",
    sessionId: bound.brigade_session_id,
    teamKey: bound.team_key,
    mark: () => api.requests().length,
    arrival(tag, from) {
      const requests = api.requests();
      for (let i = from; i < requests.length; i++)
        if (JSON.stringify(requests[i]).includes(tag)) return api.arrivals()[i];
      return undefined;
    },
    // Qwen Code shows "esc to cancel" while a turn runs.
    waitIdle: (ms) => until(() => !tui.tmux.pane().includes("esc to cancel"), ms, "Qwen Code idle"),
    screen: () => tui.tmux.pane(),
    async close() {
      await closeQwenTui(tui);
      await lanesGone(person.stateDir);
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
