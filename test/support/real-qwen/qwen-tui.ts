/**
 * One interactive Qwen Code session under tmux for the tests (docs/49-qwen.md): a private home
 * and Qwen home, the settings that point it at the loopback fake API, the person's controller
 * token minted the documented way (`qwen sessions controllers add`), and its registry record.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { parseQwenRecord, type QwenRecord } from "../../../src/harness/qwen/index.ts";
import { waitFor } from "../plugin-world.ts";
import { TmuxClaude } from "../real-claude/index.ts";
import type { FakeChatApi } from "./fake-chat-api.ts";

const run = promisify(execFile);

/** A running Qwen Code TUI and what the tests read of it. */
export interface QwenTui {
  readonly tmux: TmuxClaude;
  /** `$QWEN_HOME` (also its runtime folder: conversations are written below it). */
  readonly qwenHome: string;
  /** The controller token the person minted for Brigade. */
  readonly controllerToken: string;
  /** The session's registry record, as read once it was written. */
  readonly record: QwenRecord;
}

/** Whose Qwen Code: a person's home, checkout and terminal environment (default: fresh ones in `dir`). */
export interface QwenPersonOptions {
  readonly home: string;
  readonly project: string;
  readonly env: Readonly<Record<string, string>>;
  /** Runs with the minted controller token before the TUI starts (e.g. `brigade qwen token`). */
  readonly beforeStart?: (token: string) => Promise<void>;
  /** Qwen Code's `tools.approvalMode` (default: Qwen Code's own, which asks before a tool runs). */
  readonly approvalMode?: "yolo";
}

/**
 * Starts Qwen Code's TUI from `script` in the person's checkout (default `dir/project`, home
 * `dir/home`), after minting a controller token labelled `brigade`; resolves once the registry
 * record exists and the prompt is on screen. `dir` also holds the tmux server.
 */
export async function startQwenTui(
  script: string,
  dir: string,
  api: FakeChatApi,
  person?: QwenPersonOptions,
): Promise<QwenTui> {
  const home = person?.home ?? join(dir, "home");
  const qwenHome = join(home, ".qwen");
  const project = person?.project ?? join(dir, "project");
  mkdirSync(qwenHome, { recursive: true });
  mkdirSync(project, { recursive: true });
  // Qwen Code binds its inbox below this folder and leaves the folder behind at its exit: keep it
  // inside the test's own folder (the socket path stays well under 103 bytes).
  const runtime = join(dir, "run");
  mkdirSync(runtime, { recursive: true, mode: 0o700 });
  writeFileSync(
    join(qwenHome, "settings.json"),
    JSON.stringify({
      security: { auth: { selectedType: "openai" }, folderTrust: { enabled: false } },
      model: { name: "fake-model" },
      general: { enableAutoUpdate: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      ui: { hideTips: true, enableFollowupSuggestions: false },
      ...(person?.approvalMode === undefined
        ? {}
        : { tools: { approvalMode: person.approvalMode } }),
    }),
  );
  const env: Record<string, string> = {
    ...person?.env,
    HOME: home,
    QWEN_HOME: qwenHome,
    PATH: person?.env.PATH ?? process.env.PATH ?? "/usr/bin:/bin",
    XDG_RUNTIME_DIR: runtime,
    OPENAI_API_KEY: "dummy-key",
    OPENAI_BASE_URL: api.url,
    OPENAI_MODEL: "fake-model",
  };
  const minted = await run(
    process.execPath,
    [script, "sessions", "controllers", "add", "--label", "brigade"],
    { cwd: project, env, timeout: 60_000, encoding: "utf8" },
  );
  const token = /qpc_[0-9a-f]{64}/.exec(minted.stdout)?.[0];
  if (token === undefined) throw new Error("`qwen sessions controllers add` printed no token");
  await person?.beforeStart?.(token);
  const tmux = await TmuxClaude.start({
    executable: process.execPath,
    args: [script],
    cwd: project,
    env,
    dir,
    columns: 200,
    rows: 50,
  });
  const sessions = join(qwenHome, "sessions");
  let record: QwenRecord | undefined;
  await waitFor(
    () => {
      record = readOnlyRecord(sessions);
      return record?.ipcPath !== undefined;
    },
    60_000,
    "Qwen Code's registry record",
  );
  await tmux.waitForPane("Type your message", 60_000, "Qwen Code's prompt");
  return { tmux, qwenHome, controllerToken: token, record: record as QwenRecord };
}

/** The one record in a private registry folder, or `undefined` while there is none. */
function readOnlyRecord(folder: string): QwenRecord | undefined {
  let names: string[];
  try {
    names = readdirSync(folder).filter((n) => n.endsWith(".json"));
  } catch {
    return undefined;
  }
  for (const name of names) {
    try {
      const read = parseQwenRecord(readFileSync(join(folder, name), "utf8"), name);
      if (read.ok) return read.record;
    } catch {
      // written meanwhile: read again at the next look
    }
  }
  return undefined;
}

/**
 * Closes the TUI's tmux and waits until its `cli.js` process (the registry's pid, a child that
 * may outlive the terminal's process for a moment) is gone too, killing it after 5 s: only then
 * may a test remove the folders it writes to.
 */
export async function closeQwenTui(tui: QwenTui | undefined): Promise<void> {
  if (tui === undefined) return;
  await tui.tmux.close();
  const alive = (): boolean => {
    try {
      process.kill(tui.record.pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  try {
    await waitFor(() => !alive(), 5_000, "Qwen Code's cli.js to exit");
  } catch {
    try {
      process.kill(tui.record.pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
    await waitFor(() => !alive(), 5_000, "Qwen Code's cli.js to exit after SIGKILL");
  }
}
