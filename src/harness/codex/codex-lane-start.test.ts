import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { fakeWatcherAdapter } from "../../../test/support/fake-watcher-adapter.ts";
import { type Adapter, PROTOCOL_VERSION } from "../../protocol/index.ts";
import { type HostHookDeps, runHostHook } from "../host-session/index.ts";
import { readByPidMap, stateLayout } from "../state/index.ts";
import { acquirePidfile, processStartToken, tokenSha256 } from "../watcher/index.ts";
import { CODEX_HOOK_SPEC } from "./codex-hook.ts";
import { startCodexLane } from "./codex-lane.ts";
import { CODEX_CLIENT } from "./index.ts";

// Codex's SessionStart and its push lane (docs/49-codex.md "How a session gets it").

let base: string;
let child: ChildProcess | undefined;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "brigade-codex-lane-"));
});
afterEach(() => {
  child?.kill("SIGKILL");
  child = undefined;
  rmSync(base, { recursive: true, force: true });
});

const env = () => ({ HOME: base, XDG_STATE_HOME: base, XDG_CONFIG_HOME: join(base, "config") });
const uid = process.getuid?.() ?? 0;

function deps(started: string[]): HostHookDeps {
  const fake = fakeWatcherAdapter({ capabilities: ["session.live_delivery"] });
  const adapter = {
    ...fake.adapter,
    describe: async () => ({ protocol_version: PROTOCOL_VERSION, capabilities: [] }),
    sessionRegister: async () => ({ session_id: "s-new", resumed: false }),
  } as unknown as Adapter;
  return {
    env: env(),
    uid,
    now: Date.now,
    ancestors: [process.pid],
    connect: {
      openAdapter: () => adapter,
      resolveTeam: () => ({
        ok: true as const,
        server: "http://127.0.0.1:1",
        teamRef: "t-1",
        teamName: "core",
        teamKey: "team-0123456789abcdef",
        checkout: base,
        configDir: join(base, "config", "brigade"),
      }),
    },
    log: () => {},
    startPushLane: async (map) => {
      started.push(`${map.claude_pid}:${map.claude_session_id}`);
      return "spawned";
    },
  };
}

const start = (thread: string) =>
  JSON.stringify({ session_id: thread, cwd: base, hook_event_name: "SessionStart" });

/** A stand-in lane process holding the watcher pidfile of this process. */
function laneOf(): ChildProcess {
  const lane = spawn("sleep", ["30"], { stdio: "ignore" });
  const pid = lane.pid ?? 0;
  acquirePidfile(stateLayout(join(base, "brigade")), String(process.pid), {
    pid,
    start_token: processStartToken(pid) ?? "",
    brigade_session_id: "s-new",
    socket_path: "",
    token_sha256: tokenSha256(""),
    version: "0.1.0+000000000000",
  });
  return lane;
}

const exited = (lane: ChildProcess): Promise<boolean> =>
  new Promise((resolve) => {
    if (lane.exitCode !== null || lane.signalCode !== null) resolve(true);
    lane.once("exit", () => resolve(true));
    setTimeout(() => resolve(false), 3_000);
  });

describe("Codex's SessionStart and the push lane", () => {
  test("the start starts the session's push lane with the map it bound; the pull-only flow does not", async () => {
    const started: string[] = [];
    const out = await CODEX_CLIENT.runHook("session-start", start("c-1"), deps(started));
    expect(started).toEqual([`${process.pid}:c-1`]);
    expect(out).toContain("Brigade: this session is");
    const none: string[] = [];
    await runHostHook(CODEX_HOOK_SPEC, "session-start", start("c-1"), deps(none));
    expect(none).toEqual([]);
  });

  test("a start for another thread of the same process stops the earlier thread's lane first; the same thread's does not", async () => {
    await CODEX_CLIENT.runHook("session-start", start("c-1"), deps([]));
    child = laneOf();
    await CODEX_CLIENT.runHook("session-start", start("c-1"), deps([]));
    expect(child.exitCode === null && child.signalCode === null).toBe(true);
    await CODEX_CLIENT.runHook("session-start", start("c-2"), deps([]));
    expect(await exited(child)).toBe(true);
    const map = readByPidMap({ claudePid: String(process.pid), env: env(), uid });
    expect(map.ok && map.map.claude_session_id).toBe("c-2");
  });

  test("a process that is no Codex app-server starts no lane at all", async () => {
    await CODEX_CLIENT.runHook("session-start", start("c-1"), deps([]));
    const map = readByPidMap({ claudePid: String(process.pid), env: env(), uid });
    if (!map.ok) throw new Error(map.reason);
    expect(await startCodexLane(map.map, env(), uid)).toBe("no_door");
  });
});
