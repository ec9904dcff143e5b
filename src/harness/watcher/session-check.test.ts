import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { sampleByPidMap } from "../../../test/support/by-pid-map.ts";
import { stateLayout, writeByPidMap } from "../state/index.ts";
import type { ProcessLiveness } from "./process-probe.ts";
import { checkSession } from "./session-check.ts";
import type { WatcherLog } from "./watcher-log.ts";

let base: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "brigade-session-check-"));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** Checks pid 4242's session `s-1` with Claude's pid reported as `liveness`; returns the log too. */
function check(liveness: ProcessLiveness) {
  const events: string[] = [];
  const log: WatcherLog = { write: (_level, event) => void events.push(event) };
  const result = checkSession({
    probe: { liveness: () => liveness },
    claudePid: 4242,
    sessionId: "s-1",
    env: { CLAUDE_PID: "4242", HOME: base, XDG_STATE_HOME: base },
    uid: process.getuid?.() ?? -1,
    log,
  });
  return { result, events };
}

const writeMap = (sessionId: string): void =>
  writeByPidMap(
    stateLayout(join(base, "brigade")),
    sampleByPidMap({ brigade_session_id: sessionId }),
  );

describe("checkSession", () => {
  test("a live Claude Code with our map: ok with the map as read now, nothing logged", () => {
    writeMap("s-1");
    const { result, events } = check("alive");
    expect(result.ok && result.map.brigade_session_id).toBe("s-1");
    expect(events).toEqual([]);
  });

  test("Claude Code's pid dead, a zombie or reused: claude_gone, before the map is read", () => {
    for (const liveness of ["dead", "zombie", "foreign"] as const) {
      const { result, events } = check(liveness);
      expect(result).toEqual({ ok: false, reason: "claude_gone" });
      expect(events).toEqual(["claude_gone"]);
    }
  });

  test("no map: map_gone; a map of another Brigade session: map_changed", () => {
    expect(check("alive")).toEqual({
      result: { ok: false, reason: "map_gone" },
      events: ["map_gone"],
    });
    writeMap("s-2");
    expect(check("alive")).toEqual({
      result: { ok: false, reason: "map_changed" },
      events: ["map_changed"],
    });
  });
});
