import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { sampleByPidMap } from "../../../test/support/by-pid-map.ts";
import { BY_PID_MAP_REASONS, type ByPidMap, stateLayout, writeByPidMap } from "../state/index.ts";
import { loadSessionContext, SESSION_CONTEXT_REASONS, sessionContextLine } from "./index.ts";

const root = mkdtempSync(join(tmpdir(), "brigade-session-context-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const map = (extra: Partial<ByPidMap> = {}): ByPidMap =>
  sampleByPidMap({
    claude_pid: 777,
    session_name: "api",
    socket_path: "",
    team_key: "team-0000000000000000",
    ...extra,
  });

describe("loadSessionContext", () => {
  const xdg = join(root, "state");
  writeByPidMap(stateLayout(join(xdg, "brigade")), map());

  test("an empty config_dir falls back to HOME, never to an inherited BRIGADE_CONFIG_DIR", () => {
    const ctx = loadSessionContext({
      CLAUDE_PID: "777",
      XDG_STATE_HOME: xdg,
      HOME: root,
      BRIGADE_CONFIG_DIR: "/planted",
    });
    expect(ctx.ok).toBe(true);
    if (ctx.ok) {
      expect(ctx.map.brigade_session_id).toBe("s-1");
      expect(ctx.layout.root).toBe(join(xdg, "brigade"));
      expect(ctx.adapter.profileName).toBe("team-0000000000000000");
    }
  });

  test("no absolute config dir → no_config_dir, exit 11", () => {
    const ctx = loadSessionContext({ CLAUDE_PID: "777", XDG_STATE_HOME: xdg, HOME: "relative" });
    expect(ctx).toEqual({
      ok: false,
      reason: "no_config_dir",
      line: sessionContextLine("no_config_dir"),
      status: 11,
    });
  });

  test("map reasons pass through; every reason has a value-free line", () => {
    expect(loadSessionContext({ XDG_STATE_HOME: xdg })).toMatchObject({
      reason: "not_in_session",
      status: 11,
    });
    expect(loadSessionContext({ CLAUDE_PID: "778", XDG_STATE_HOME: xdg })).toMatchObject({
      reason: "not_registered",
    });
    for (const reason of [...BY_PID_MAP_REASONS, ...SESSION_CONTEXT_REASONS]) {
      const line = sessionContextLine(reason);
      expect(line.startsWith(`config: ${reason}: `)).toBe(true);
      expect(line).not.toContain("\n");
      expect(line).not.toMatch(/\/[\w.-]+\//);
    }
  });
});
