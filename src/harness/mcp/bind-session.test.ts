import { chmodSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { sampleByPidMap } from "../../../test/support/by-pid-map.ts";
import { type ByPidMap, type StateLayout, stateLayout, writeByPidMap } from "../state/index.ts";
import { bindSession } from "./bind-session.ts";
import { harnessBindingPath, writeHarnessBinding } from "./harness-binding-file.ts";
import { harnessIdentity } from "./harness-identity.ts";
import { MAX_ANCESTORS, processAncestors } from "./process-ancestors.ts";

let root: string;
let layout: StateLayout;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "brigade-bind-"));
  layout = stateLayout(join(root, "state", "brigade"));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** The environment of the server's process, with every BRIGADE_* a repository could plant. */
function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    HOME: root,
    XDG_STATE_HOME: join(root, "state"),
    BRIGADE_CONFIG_DIR: join(root, "planted"),
    BRIGADE_PROFILE: "planted",
    BRIGADE_SERVER: "http://127.0.0.1:9",
    ...extra,
  };
}

function map(pid: number, session: string, native: string, over: Partial<ByPidMap> = {}) {
  return sampleByPidMap({
    claude_pid: pid,
    brigade_session_id: session,
    claude_session_id: native,
    config_dir: join(root, "config"),
    ...over,
  });
}

function bind(
  meta: Record<string, unknown> | undefined,
  ancestors: number[],
  extra: Record<string, string> = {},
) {
  return bindSession({ env: env(extra), meta, ancestors });
}

describe("harnessIdentity", () => {
  test("a host's _meta id outranks the environment; the arguments are never read", () => {
    const e = { CLAUDE_CODE_SESSION_ID: "cc-1" };
    expect(harnessIdentity(e, { threadId: "th-1" })).toEqual({
      source: "meta",
      host: "codex",
      nativeId: "th-1",
    });
    expect(harnessIdentity(e, { sessionID: "oc-1" })).toMatchObject({ host: "opencode" });
    expect(harnessIdentity(e, { session_id: "x" })).toEqual({
      source: "env",
      host: "claude-code",
      nativeId: "cc-1",
    });
    expect(harnessIdentity({}, undefined)).toEqual({ source: "none" });
  });

  test("a value that cannot name a session is kept as an identity that binds nothing", () => {
    expect(harnessIdentity({}, { threadId: 7 })).toMatchObject({ source: "meta", nativeId: "" });
    expect(harnessIdentity({}, { threadId: "x".repeat(513) })).toMatchObject({ nativeId: "" });
  });
});

describe("bindSession", () => {
  test("Codex's threadId binds through that host's binding file, per call", () => {
    writeHarnessBinding(layout, "codex", map(900, "s-thread-1", "th-1"));
    writeHarnessBinding(layout, "codex", map(900, "s-thread-2", "th-2"));
    const one = bind({ threadId: "th-1" }, []);
    const two = bind({ threadId: "th-2" }, []);
    expect(one.ok && one.context.map.brigade_session_id).toBe("s-thread-1");
    expect(two.ok && two.context.map.brigade_session_id).toBe("s-thread-2");
    expect(one.ok && one.identity).toEqual({ source: "meta", host: "codex", nativeId: "th-1" });
  });

  test("OpenCode's sessionID binds through its own folder, not Codex's", () => {
    writeHarnessBinding(layout, "codex", map(900, "s-codex", "same-id"));
    expect(bind({ sessionID: "same-id" }, []).ok).toBe(false);
    writeHarnessBinding(layout, "opencode", map(901, "s-opencode", "same-id"));
    const bound = bind({ sessionID: "same-id" }, []);
    expect(bound.ok && bound.context.map.brigade_session_id).toBe("s-opencode");
  });

  test("a host id without a binding is refused, even when the process tree has one", () => {
    writeByPidMap(layout, map(5001, "s-tree", "cc-1"));
    const refused = bind({ threadId: "th-unknown" }, [5001], { CLAUDE_CODE_SESSION_ID: "cc-1" });
    expect(refused).toMatchObject({ ok: false, reason: "host_session_unbound" });
    expect(refused.ok ? "" : refused.line).toMatch(/^config: host_session_unbound: the MCP host/);
    expect(bind({ threadId: 42 }, [5001])).toMatchObject({ reason: "host_session_unbound" });
  });

  test("a binding file whose session id differs from its name is refused", () => {
    writeHarnessBinding(layout, "codex", map(900, "s-1", "th-1"));
    const planted = harnessBindingPath(layout, "codex", "th-2");
    rmSync(planted, { force: true });
    renameSync(harnessBindingPath(layout, "codex", "th-1"), planted);
    expect(bind({ threadId: "th-2" }, [])).toMatchObject({ ok: false, reason: "map_mismatch" });
  });

  test("Claude Code's session id binds the nearest Claude Code process's map that holds it", () => {
    writeByPidMap(layout, map(5002, "s-outer", "cc-outer"));
    writeByPidMap(layout, map(5001, "s-inner", "cc-inner"));
    const inner = bind(undefined, [4000, 5001, 5002], { CLAUDE_CODE_SESSION_ID: "cc-inner" });
    expect(inner.ok && inner.context.map.brigade_session_id).toBe("s-inner");
    expect(inner.ok && inner.context.claudePid).toBe("5001");
  });

  test("a Claude Code id the nearest map does not hold is refused, not bound further up", () => {
    writeByPidMap(layout, map(5002, "s-outer", "cc-outer"));
    writeByPidMap(layout, map(5001, "s-after-clear", "cc-new"));
    const stale = bind(undefined, [5001, 5002], { CLAUDE_CODE_SESSION_ID: "cc-outer" });
    expect(stale).toMatchObject({ ok: false, reason: "claude_session_unbound" });
    expect(bind(undefined, [], { CLAUDE_CODE_SESSION_ID: "cc-outer" })).toMatchObject({
      reason: "claude_session_unbound",
    });
  });

  test("without any id, the map a session hook wrote for the nearest process above binds", () => {
    writeByPidMap(layout, map(5002, "s-outer", "n-2"));
    writeByPidMap(layout, map(5001, "s-inner", "n-1"));
    const bound = bind(undefined, [4000, 5001, 5002]);
    expect(bound.ok && bound.context.map.brigade_session_id).toBe("s-inner");
    expect(bound.ok && bound.identity).toEqual({ source: "none" });
    expect(bind(undefined, [4000, 4001])).toMatchObject({ ok: false, reason: "process_unbound" });
  });

  test("the nearest map decides: one failing its privacy check refuses, a farther one is not used", () => {
    writeByPidMap(layout, map(5002, "s-outer", "n-2"));
    writeByPidMap(layout, map(5001, "s-inner", "n-1"));
    chmodSync(layout.byPid("5001"), 0o644);
    expect(bind(undefined, [5001, 5002])).toMatchObject({ ok: false, reason: "map_not_private" });
  });

  test("the person is the map's credential profile: every BRIGADE_* is ignored", () => {
    writeByPidMap(layout, map(5001, "s-1", "n-1"));
    const bound = bind(undefined, [5001]);
    expect(bound.ok && bound.context.configDir).toBe(join(root, "config"));
    writeByPidMap(layout, map(5001, "s-1", "n-1", { config_dir: "" }));
    const fallback = bind(undefined, [5001]);
    expect(fallback.ok && fallback.context.configDir).toBe(join(root, ".config", "brigade"));
  });

  test("a relative state folder is refused before anything is read", () => {
    const refused = bindSession({ env: { HOME: "relative" }, meta: undefined, ancestors: [] });
    expect(refused).toMatchObject({ ok: false, reason: "state_dir_relative" });
  });
});

describe("processAncestors", () => {
  const parents = new Map([
    [10, 20],
    [20, 30],
    [30, 1],
  ]);

  test("nearest first, ending before init", () => {
    expect(processAncestors(10, (pid) => parents.get(pid))).toEqual([20, 30]);
  });

  test("a cycle, an unreadable parent or a deep tree ends the walk", () => {
    expect(processAncestors(10, (pid) => (pid === 10 ? 20 : 10))).toEqual([20]);
    expect(processAncestors(10, () => undefined)).toEqual([]);
    expect(processAncestors(1000, (pid) => pid + 1)).toHaveLength(MAX_ANCESTORS);
  });

  test("this process's own ancestry starts with its parent", () => {
    expect(processAncestors(process.pid)[0]).toBe(process.ppid);
  });
});
