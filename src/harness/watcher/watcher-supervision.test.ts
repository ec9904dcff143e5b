import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { Adapter, WatchEvent, WatchHandle } from "../../protocol/index.ts";
import { type StateLayout, stateLayout, writeByPidMap } from "../state/index.ts";
import { type ProcessProbe, processStartToken } from "./process-probe.ts";
import { runWatcher } from "./run-watcher.ts";
import { nextRetryDelay, WATCHER_BACKOFF } from "./watcher-backoff.ts";
import { readWatcherStatus } from "./watcher-files.ts";

let base: string;
let layout: StateLayout;
const CLAUDE = 4242;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "brigade-supervise-"));
  layout = stateLayout(join(base, "brigade"));
  writeByPidMap(layout, {
    claude_pid: CLAUDE,
    claude_session_id: "native",
    brigade_session_id: "s-1",
    team_ref: "t",
    team_name: "core",
    session_name: "web",
    permission_mode: "default",
    non_interactive: false,
    inbound: "accept",
    frame_level: "open",
    frame_text: "",
    socket_path: join(base, "none.sock"),
    team_key: "team-1",
    config_dir: join(base, "config"),
    adapter_command: [],
    plugin_bin: "",
    harness_version: "2.1.328",
    registered_at: "2026-10-02T09:15:42Z",
    updated_at: "2026-10-02T09:15:42Z",
  });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

// Claude's pid is a fake that stays alive; our own pid is probed for real.
const probe: ProcessProbe = {
  liveness: () => "alive",
  startToken: (pid) => processStartToken(pid),
};

/** A watch handle that emits `events` (after `gate`), then ends, or stays open when `hold`. */
function handle(events: WatchEvent[], options: { gate?: Promise<void>; hold?: boolean } = {}) {
  let close: () => void = () => {};
  const closed = new Promise<void>((r) => {
    close = r;
  });
  const events$ = (async function* () {
    await options.gate;
    yield* events;
    if (options.hold === true) await closed;
  })();
  const h: WatchHandle = {
    events: events$,
    [Symbol.asyncIterator]: () => events$[Symbol.asyncIterator](),
    send: async () => {},
    close: async () => close(),
  };
  return h;
}

function fakeAdapter(handles: WatchHandle[]): { adapter: Adapter; opened: () => number } {
  let opened = 0;
  const adapter = {
    describe: async () => ({ capabilities: [] }),
    messageWatch: () => {
      const next = handles[opened] ?? handle([], { hold: true });
      opened += 1;
      return next;
    },
    sessionHeartbeat: async () => ({}),
    sessionClose: async () => ({}),
    messageReceive: async () => ({ messages: [] }),
    messageAck: async () => ({ acked: [], unknown: [] }),
  } as unknown as Adapter;
  return { adapter, opened: () => opened };
}

const env = () => ({
  CLAUDE_PID: String(CLAUDE),
  HOME: base,
  XDG_STATE_HOME: base,
  CLAUDE_CODE_MESSAGING_SOCKET: join(base, "none.sock"),
  CLAUDE_CODE_MESSAGING_TOKEN: "tok",
});

const notice = (): string => {
  try {
    return readFileSync(layout.notice(String(CLAUDE)), "utf8");
  } catch {
    return "";
  }
};

async function until(what: string, check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("watch supervision", () => {
  test("restarts with backoff, goes slow after the failure limit (one notice), then reconnects", async () => {
    let open: () => void = () => {};
    const gate = new Promise<void>((r) => {
      open = r;
    });
    const ready: WatchEvent = {
      event: "ready",
      protocol_version: "1",
      session_id: "s-1",
      mode: "push",
    };
    const { adapter, opened } = fakeAdapter([
      handle([]),
      handle([]),
      handle([]),
      handle([ready], { gate, hold: true }),
    ]);
    const controller = new AbortController();
    const running = runWatcher({
      claudePid: String(CLAUDE),
      env: env(),
      probe,
      signal: controller.signal,
      tickMs: 50,
      openAdapter: () => adapter,
      backoff: { minMs: 1, maxMs: 4, failureLimit: 3, failureWindowMs: 60_000, slowMs: 5 },
    });
    await until("slow mode notice", () => notice().includes("keeps failing"));
    expect(notice()).toBe(
      "Brigade: the team connection keeps failing; retrying about every five minutes (messages wait on the server).\n",
    );
    await until("fourth watch", () => opened() === 4);
    expect(readWatcherStatus(layout, String(CLAUDE))?.state).toBe("retrying");
    open();
    await until("reconnected", () => notice().includes("reconnected"));
    expect(notice()).toBe("Brigade: reconnected to the team; messages are delivered again.\n");
    await until("live", () => readWatcherStatus(layout, String(CLAUDE))?.state === "live");
    controller.abort();
    expect(await running).toEqual({ reason: "signal", status: 0 });
  });

  test("unauthorized stops the watcher with a notice and exit status 5", async () => {
    const { adapter } = fakeAdapter([
      handle([
        {
          event: "error",
          error: { code: "unauthorized", message: "not a member", retryable: false },
        },
      ]),
    ]);
    const exit = await runWatcher({
      claudePid: String(CLAUDE),
      env: env(),
      probe,
      tickMs: 50,
      openAdapter: () => adapter,
    });
    expect(exit).toEqual({ reason: "fatal_error", status: 5, code: "unauthorized" });
    expect(notice()).toMatch(/^Brigade: message delivery stopped/);
    expect(readWatcherStatus(layout, String(CLAUDE))?.state).toBe("stopped");
  });

  test("a zombie or dead Claude pid ends the watcher (claude_gone)", async () => {
    const { adapter } = fakeAdapter([]);
    const exit = await runWatcher({
      claudePid: String(CLAUDE),
      env: env(),
      probe: { ...probe, liveness: (pid) => (pid === CLAUDE ? "zombie" : "alive") },
      tickMs: 50,
      openAdapter: () => adapter,
    });
    expect(exit).toEqual({ reason: "claude_gone", status: 0 });
  });

  test("nextRetryDelay: 1–30 s jittered, slow mode around 5 min", () => {
    expect(nextRetryDelay(WATCHER_BACKOFF, 1, false, () => 0)).toBe(1_000);
    expect(nextRetryDelay(WATCHER_BACKOFF, 3, false, () => 0.999)).toBeLessThanOrEqual(4_000);
    expect(nextRetryDelay(WATCHER_BACKOFF, 3, false, () => 0)).toBe(2_000);
    expect(nextRetryDelay(WATCHER_BACKOFF, 40, false, () => 0.999)).toBeLessThanOrEqual(30_000);
    expect(nextRetryDelay(WATCHER_BACKOFF, 40, true, () => 0)).toBe(240_000);
    expect(nextRetryDelay(WATCHER_BACKOFF, 40, true, () => 0.999)).toBeLessThanOrEqual(360_000);
  });
});
