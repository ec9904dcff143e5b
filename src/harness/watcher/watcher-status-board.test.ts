import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { type StateLayout, stateLayout } from "../state/index.ts";
import { readWatcherStatus, watcherStatusPath } from "./watcher-files.ts";
import { WatcherStatusBoard } from "./watcher-status-board.ts";

let base: string;
let layout: StateLayout;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "brigade-status-board-"));
  layout = stateLayout(join(base, "brigade"));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("WatcherStatusBoard", () => {
  test("writes the state, the delivered count and the times of its clock", () => {
    const clock = { now: Date.UTC(2026, 9, 2, 9, 15, 42) };
    const board = new WatcherStatusBoard({
      layout,
      claudePid: "4242",
      sessionId: "s-1",
      pid: 77,
      now: () => clock.now,
    });
    board.write();
    expect(readWatcherStatus(layout, "4242")).toEqual({
      version: 1,
      pid: 77,
      brigade_session_id: "s-1",
      state: "connecting",
      last_delivery_at: null,
      delivered: 0,
      updated_at: "2026-10-02T09:15:42.000Z",
    });
    clock.now += 1_000;
    board.set("live");
    clock.now += 1_000;
    board.delivered();
    expect(readWatcherStatus(layout, "4242")).toMatchObject({
      state: "live",
      delivered: 1,
      last_delivery_at: "2026-10-02T09:15:44.000Z",
      updated_at: "2026-10-02T09:15:44.000Z",
    });
  });

  test("an unchanged state writes nothing", () => {
    const clock = { now: 0 };
    const board = new WatcherStatusBoard({
      layout,
      claudePid: "4242",
      sessionId: "s-1",
      pid: 77,
      now: () => clock.now,
    });
    board.set("retrying");
    const first = statSync(watcherStatusPath(layout, "4242")).ino;
    clock.now = 5_000;
    board.set("retrying");
    expect(board.state).toBe("retrying");
    expect(statSync(watcherStatusPath(layout, "4242")).ino).toBe(first);
    expect(readWatcherStatus(layout, "4242")?.updated_at).toBe("1970-01-01T00:00:00.000Z");
  });
});
