import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { WatchEvent } from "../../protocol/index.ts";
import { type StateLayout, stateLayout, writeByPidMap } from "../state/index.ts";
import { type ProcessProbe, processStartToken } from "./process-probe.ts";
import { runWatcher } from "./run-watcher.ts";
import { nextRetryDelay, WATCHER_BACKOFF } from "./watcher-backoff.ts";
import { readWatcherStatus } from "./watcher-files.ts";
import {
  fakeWatcherAdapter,
  fakeWatchHandle as handle,
  testByPidMap,
  until,
} from "./watcher-test-support.ts";

let base: string;
let layout: StateLayout;
const CLAUDE = 4242;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "brigade-supervise-"));
  layout = stateLayout(join(base, "brigade"));
  writeByPidMap(
    layout,
    testByPidMap({ socket_path: join(base, "none.sock"), config_dir: join(base, "config") }),
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
    const { adapter } = fakeWatcherAdapter();
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
