import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { sampleByPidMap } from "../../../test/support/by-pid-map.ts";
import {
  fakeWatcherAdapter,
  fakeWatchHandle as handle,
} from "../../../test/support/fake-watcher-adapter.ts";
import { until } from "../../../test/support/until.ts";
import { type Adapter, BapError, type WatchEvent } from "../../protocol/index.ts";
import { type StateLayout, stateLayout, writeByPidMap } from "../state/index.ts";
import { type ProcessProbe, processStartToken } from "./process-probe.ts";
import { type RunWatcherOptions, runWatcher, type WatcherExit } from "./run-watcher.ts";
import { nextRetryDelay, WATCHER_BACKOFF } from "./watcher-backoff.ts";
import { readWatcherStatus } from "./watcher-files.ts";
import type { WatcherLog } from "./watcher-log.ts";

let base: string;
let layout: StateLayout;
const CLAUDE = 4242;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "brigade-supervise-"));
  layout = stateLayout(join(base, "brigade"));
  writeByPidMap(
    layout,
    sampleByPidMap({ socket_path: join(base, "none.sock"), config_dir: join(base, "config") }),
  );
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

// Claude's pid is a fake that stays alive; our own pid is probed for real.
const probe: ProcessProbe = {
  liveness: () => "alive",
  startToken: (pid) => processStartToken(pid),
};

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

/** Runs a watcher for pid 4242 over `adapter`: Claude alive, a 50 ms tick, unless `over` says. */
function watch(adapter: Adapter, over: Partial<RunWatcherOptions> = {}): Promise<WatcherExit> {
  return runWatcher({
    claudePid: String(CLAUDE),
    env: env(),
    probe,
    tickMs: 50,
    openAdapter: () => adapter,
    ...over,
  });
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
    const { adapter, calls } = fakeWatcherAdapter({
      handles: [handle([]), handle([]), handle([]), handle([ready], { gate, hold: true })],
    });
    const controller = new AbortController();
    const running = watch(adapter, {
      signal: controller.signal,
      backoff: { minMs: 1, maxMs: 4, failureLimit: 3, failureWindowMs: 60_000, slowMs: 5 },
    });
    await until("slow mode notice", () => notice().includes("keeps failing"));
    expect(notice()).toBe(
      "Brigade: the team connection keeps failing; retrying about every five minutes (messages wait on the server).\n",
    );
    await until("fourth watch", () => calls.opened === 4);
    expect(readWatcherStatus(layout, String(CLAUDE))?.state).toBe("retrying");
    open();
    await until("reconnected", () => notice().includes("reconnected"));
    expect(notice()).toBe("Brigade: reconnected to the team; messages are delivered again.\n");
    await until("live", () => readWatcherStatus(layout, String(CLAUDE))?.state === "live");
    controller.abort();
    expect(await running).toEqual({ reason: "signal", status: 0 });
  });

  test("unauthorized stops the watcher with a notice and exit status 5", async () => {
    const { adapter } = fakeWatcherAdapter({
      handles: [
        handle([
          {
            event: "error",
            error: { code: "unauthorized", message: "not a member", retryable: false },
          },
        ]),
      ],
    });
    const exit = await watch(adapter);
    expect(exit).toEqual({ reason: "fatal_error", status: 5, code: "unauthorized" });
    expect(notice()).toMatch(/^Brigade: message delivery stopped/);
    expect(readWatcherStatus(layout, String(CLAUDE))?.state).toBe("stopped");
  });

  test("a watcher stopped by a refusal says, in one last heartbeat, that the session is not live", async () => {
    const refused = () =>
      handle([
        {
          event: "error",
          error: { code: "unauthorized", message: "not a member", retryable: false },
        },
      ]);
    const live = fakeWatcherAdapter({
      handles: [refused()],
      capabilities: ["session.live_delivery"],
    });
    expect(await watch(live.adapter)).toMatchObject({ reason: "fatal_error" });
    expect(live.calls.heartbeats.at(-1)).toEqual({
      live_delivery: "no",
      live_delivery_reason: "watcher_stopped",
    });
    expect(live.calls.closes).toBe(0);
    // Without the capability the server would not know the member: nothing is said.
    const plain = fakeWatcherAdapter({ handles: [refused()] });
    await watch(plain.adapter);
    expect(plain.calls.heartbeats.some((h) => "live_delivery" in h)).toBe(false);
    // A server that refuses the report too: the watcher still stops, and says why in its log.
    const events: string[] = [];
    const failing = fakeWatcherAdapter({
      handles: [refused()],
      capabilities: ["session.live_delivery"],
      heartbeat: async () => {
        throw new BapError({ code: "unauthorized", message: "x", retryable: false });
      },
    });
    const exit = await watch(failing.adapter, {
      log: { write: (_level, event) => void events.push(event) },
    });
    expect(exit).toMatchObject({ reason: "fatal_error", status: 5 });
    expect(events).toContain("live_stop_report_failed");
  });

  test("a signal or Claude Code's end says nothing of live delivery: the stopper takes over", async () => {
    for (const end of ["signal", "claude_gone"] as const) {
      writeByPidMap(layout, sampleByPidMap({ socket_path: "", config_dir: join(base, "config") }));
      const { adapter, calls } = fakeWatcherAdapter({ capabilities: ["session.live_delivery"] });
      const controller = new AbortController();
      let claudeAlive = true;
      const exit = watch(adapter, {
        signal: controller.signal,
        tickMs: 20,
        probe: { ...probe, liveness: (pid) => (pid !== CLAUDE || claudeAlive ? "alive" : "dead") },
      });
      await until("running", () => calls.heartbeats.length >= 1);
      if (end === "signal") controller.abort();
      else claudeAlive = false;
      expect(await exit).toMatchObject({ reason: end });
      expect(calls.heartbeats.filter((h) => h.live_delivery === "no")).toEqual([]);
    }
  });

  test("a zombie or dead Claude pid ends the watcher (claude_gone) and closes the session", async () => {
    const { adapter, calls } = fakeWatcherAdapter();
    const exit = await watch(adapter, {
      probe: { ...probe, liveness: (pid) => (pid === CLAUDE ? "zombie" : "alive") },
    });
    expect(exit).toEqual({ reason: "claude_gone", status: 0 });
    expect(calls.closes).toBe(1);
  });

  test("nextRetryDelay: 1–30 s jittered, slow mode around 5 min", () => {
    expect(nextRetryDelay(WATCHER_BACKOFF, 1, false, () => 0)).toBe(1_000);
    expect(nextRetryDelay(WATCHER_BACKOFF, 3, false, () => 0.999)).toBeLessThanOrEqual(4_000);
    expect(nextRetryDelay(WATCHER_BACKOFF, 3, false, () => 0)).toBe(2_000);
    expect(nextRetryDelay(WATCHER_BACKOFF, 40, false, () => 0.999)).toBeLessThanOrEqual(30_000);
    expect(nextRetryDelay(WATCHER_BACKOFF, 40, true, () => 0)).toBe(240_000);
    expect(nextRetryDelay(WATCHER_BACKOFF, 40, true, () => 0.999)).toBeLessThanOrEqual(360_000);
  });

  test("the by-pid map gone or naming another session ends the watcher and closes; a signal does not close", async () => {
    for (const change of ["map_gone", "map_changed", "signal"] as const) {
      writeByPidMap(layout, sampleByPidMap({ socket_path: "", config_dir: join(base, "config") }));
      const { adapter, calls } = fakeWatcherAdapter();
      const controller = new AbortController();
      const exit = watch(adapter, {
        signal: controller.signal,
        tickMs: 20,
      });
      await until("running", () => calls.heartbeats.length >= 1);
      if (change === "map_gone") rmSync(layout.byPid(String(CLAUDE)));
      if (change === "map_changed") {
        writeByPidMap(layout, sampleByPidMap({ brigade_session_id: "s-2", socket_path: "" }));
      }
      if (change === "signal") controller.abort();
      expect(await exit).toEqual({ reason: change, status: 0 });
      expect(calls.closes).toBe(change === "signal" ? 0 : 1);
    }
  });

  test("slow retry lasts until the watch is live again, even after the failure window empties", async () => {
    const restarts: boolean[] = [];
    const log: WatcherLog = {
      write: (_level, event, fields) => {
        if (event === "watch_restart") restarts.push(fields?.slow === true);
      },
    };
    const { adapter } = fakeWatcherAdapter({
      handles: Array.from({ length: 7 }, () => handle([])),
    });
    const controller = new AbortController();
    const running = watch(adapter, {
      signal: controller.signal,
      log,
      // Each slow wait (48–72 ms) is longer than the failure window (40 ms).
      backoff: { minMs: 1, maxMs: 2, failureLimit: 3, failureWindowMs: 40, slowMs: 60 },
    });
    await until("seven restarts", () => restarts.length >= 7);
    controller.abort();
    await running;
    expect(restarts.slice(0, 7)).toEqual([false, false, true, true, true, true, true]);
  });

  test("a fetch of unacknowledged messages that hangs never holds up the liveness tick", async () => {
    let claude: "alive" | "dead" = "alive";
    const message = {
      message_id: "m-1",
      sender: { principal_ref: "p-1", session_id: "s-a", session_name: "api" },
      summary: "s",
      body: "hello",
      reply_to: null,
      hop_count: 1,
      created_at: "2026-10-02T11:15:42Z",
    };
    const { adapter, calls } = fakeWatcherAdapter({
      handles: [handle([{ event: "message", message } as unknown as WatchEvent], { hold: true })],
      receive: () => new Promise(() => {}),
    });
    const exit = watch(adapter, {
      probe: { ...probe, liveness: (pid) => (pid === CLAUDE ? claude : "alive") },
      tickMs: 10,
      post: async () => ({
        ok: false,
        stage: "failed",
        reason: "connect_failed",
        connected: false,
      }),
    });
    await until("the redrive", () => calls.receives >= 1);
    claude = "dead";
    const t0 = Date.now();
    expect(await exit).toEqual({ reason: "claude_gone", status: 0 });
    expect(Date.now() - t0).toBeLessThan(1_000);
  });
});
