import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { fakeWatcherAdapter } from "../../../test/support/fake-watcher-adapter.ts";
import { type Adapter, PROTOCOL_VERSION } from "../../protocol/index.ts";
import { connectHostSession } from "../host-session/index.ts";
import { readByPidMap, stateLayout } from "../state/index.ts";
import { acquirePidfile, processStartToken, tokenSha256 } from "../watcher/index.ts";
import { runQwenHook } from "./qwen-hook.ts";

// The lane a client session's start says, and the start of its push lane (docs/49-hosts.md).

let base: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "brigade-host-lane-"));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const env = () => ({ HOME: base, XDG_STATE_HOME: base, XDG_CONFIG_HOME: join(base, "config") });

function server(capabilities: readonly string[]) {
  const fake = fakeWatcherAdapter({ capabilities });
  const adapter: Adapter = {
    ...fake.adapter,
    describe: async () => ({ protocol_version: PROTOCOL_VERSION, capabilities: [...capabilities] }),
    sessionRegister: async () => ({ session_id: "s-new", resumed: false }),
  } as unknown as Adapter;
  return { adapter, calls: fake.calls };
}

const team = () => ({
  ok: true as const,
  server: "http://127.0.0.1:1",
  teamRef: "t-1",
  teamName: "core",
  teamKey: "team-0123456789abcdef",
  checkout: base,
  configDir: join(base, "config", "brigade"),
});

function connect(adapter: Adapter) {
  return connectHostSession({
    host: "qwen",
    harness: "qwen-code",
    harnessVersion: "0.24.4",
    nativeSessionId: "q-1",
    hostPid: process.pid,
    cwd: base,
    transcriptPath: "",
    env: env(),
    uid: process.getuid?.() ?? 0,
    now: Date.now,
    openAdapter: () => adapter,
    resolveTeam: team,
  });
}

describe("a client session's lane, said at its start", () => {
  test("the start says pull_lane once after the registration, with the capability only", async () => {
    const said = server(["session.live_delivery"]);
    const connected = await connect(said.adapter);
    expect(connected).toMatchObject({ ok: true });
    expect(said.calls.heartbeats).toEqual([
      { live_delivery: "no", live_delivery_reason: "pull_lane" },
    ]);
    // A server without the capability is never told (here at a renewal of the same session).
    const silent = server([]);
    await connect(silent.adapter);
    expect(silent.calls.heartbeats.filter((h) => "live_delivery" in h)).toEqual([]);
  });

  test("a push lane that already owns the session is not contradicted at a renewal", async () => {
    const layout = stateLayout(join(base, "brigade"));
    const first = server(["session.live_delivery"]);
    await connect(first.adapter);
    acquirePidfile(layout, String(process.pid), {
      pid: process.pid,
      start_token: processStartToken(process.pid) ?? "",
      brigade_session_id: "s-new",
      socket_path: "",
      token_sha256: tokenSha256(""),
      version: "0.1.0+000000000000",
    });
    const again = server(["session.live_delivery"]);
    await connect(again.adapter);
    // The renewal's own heartbeat only: no pull_lane over the lane's "yes".
    expect(again.calls.heartbeats).toEqual([
      { activity: "idle", session_name: expect.any(String) },
    ]);
    const map = readByPidMap({
      claudePid: String(process.pid),
      env: env(),
      uid: process.getuid?.() ?? 0,
    });
    expect(map.ok && map.map.options).toEqual({ host: "qwen", harness: "qwen-code" });
  });

  test("Qwen Code's SessionStart starts the session's push lane with the map it bound", async () => {
    const said = server(["session.live_delivery"]);
    const started: string[] = [];
    const out = await runQwenHook(
      "session-start",
      JSON.stringify({ session_id: "q-1", cwd: base, hook_event_name: "SessionStart" }),
      {
        env: env(),
        uid: process.getuid?.() ?? 0,
        now: Date.now,
        ancestors: [process.pid],
        connect: { openAdapter: () => said.adapter, resolveTeam: team },
        log: () => {},
        startPushLane: async (map) => {
          started.push(`${map.claude_pid}:${map.brigade_session_id}`);
          return "spawned";
        },
      },
    );
    expect(started).toEqual([`${process.pid}:s-new`]);
    expect(out).toContain("Brigade: this session is");
  });
});
