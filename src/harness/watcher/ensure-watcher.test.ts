import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { sampleByPidMap } from "../../../test/support/by-pid-map.ts";
import { type StateLayout, stateLayout } from "../state/index.ts";
import {
  ensureWatcher,
  stopWatcher,
  watcherEnvironment,
  watcherVersion,
} from "./ensure-watcher.ts";
import { processLiveness, processStartToken } from "./process-probe.ts";
import { acquirePidfile, readWatcherPidfile, tokenSha256 } from "./watcher-files.ts";

// A stand-in watcher: records argv, cwd and environment, takes the pidfile like the real one
// (its own pid and start token, from the environment it was given), then waits for SIGTERM.
const STUB = String.raw`
const fs = require("node:fs"); const path = require("node:path"); const crypto = require("node:crypto");
const env = process.env;
fs.writeFileSync(path.join(env.STUB_OUT_DIR ?? env.HOME, "stub-" + process.pid + ".json"),
  JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd(), env }));
const stat = fs.readFileSync("/proc/self/stat", "latin1");
const start = stat.slice(stat.lastIndexOf(")") + 1).trim().split(/\s+/)[19];
const root = path.join(env.XDG_STATE_HOME, "brigade", "watchers");
fs.mkdirSync(root, { recursive: true, mode: 0o700 });
const file = path.join(root, process.argv[4] + ".json");
const sha = (s) => crypto.createHash("sha256").update(s).digest("hex");
const record = { pid: process.pid, start_token: "linux:" + start, brigade_session_id: env.STUB_SESSION ?? "s-1",
  socket_path: env.CLAUDE_CODE_MESSAGING_SOCKET, token_sha256: sha(env.CLAUDE_CODE_MESSAGING_TOKEN),
  version: "0.1.0+" + sha(path.resolve(process.argv[1])).slice(0, 12) };
if (env.STUB_EXIT === "1") process.exit(3);
fs.writeFileSync(file, JSON.stringify(record), { mode: 0o600, flag: "wx" });
process.on("SIGTERM", () => { try { fs.rmSync(file); } catch {} process.exit(0); });
setInterval(() => {}, 1000);
`;

let base: string;
let layout: StateLayout;
let entry: string;
const started: number[] = [];

const map = sampleByPidMap;
const TOKEN = "tok-123456";

const hookEnv = (): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: base,
  XDG_STATE_HOME: join(base, "state"),
  XDG_CONFIG_HOME: join(base, "config"),
  CLAUDE_CONFIG_DIR: join(base, "claude"),
  BRIGADE_STATE_DIR: "/elsewhere",
  NODE_OPTIONS: "--require /evil.js",
  SECRET_THING: "do-not-pass",
  CLAUDE_CODE_MESSAGING_TOKEN: "from-env-not-used",
});

function stubRecord(pid: number): { argv: string[]; cwd: string; env: Record<string, string> } {
  return JSON.parse(readFileSync(join(base, `stub-${pid}.json`), "utf8"));
}

/** `ensureWatcher` for pid 4242 with the stub entry, the test token and the hook environment. */
function ensure(over: Partial<Parameters<typeof ensureWatcher>[0]> = {}) {
  return ensureWatcher({
    layout,
    map: map(),
    entryScript: entry,
    token: TOKEN,
    env: hookEnv(),
    ...over,
  });
}

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "brigade-ensure-"));
  layout = stateLayout(join(base, "state", "brigade"));
  entry = join(base, "entry.cjs");
  writeFileSync(entry, STUB);
});

afterEach(async () => {
  const p = readWatcherPidfile(layout, "4242");
  if (p !== undefined) started.push(p.pid);
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
  rmSync(base, { recursive: true, force: true });
});

describe.runIf(process.platform === "linux")("ensureWatcher and stopWatcher", () => {
  test("spawns detached with an allow-listed environment; the token only in the environment", async () => {
    const r = await ensure();
    expect(r).toEqual({ outcome: "spawned" });
    const pidfile = readWatcherPidfile(layout, "4242");
    expect(pidfile).toBeDefined();
    const seen = stubRecord(pidfile?.pid as number);
    expect(seen.argv).toEqual(["watch", "--claude-pid", "4242"]);
    expect(seen.argv.join(" ")).not.toContain(TOKEN);
    expect(seen.cwd).toBe(base);
    expect(Object.keys(seen.env).sort()).toEqual(
      [
        "CLAUDE_CODE_MESSAGING_SOCKET",
        "CLAUDE_CODE_MESSAGING_TOKEN",
        "CLAUDE_CONFIG_DIR",
        "CLAUDE_PID",
        "HOME",
        "PATH",
        "XDG_CONFIG_HOME",
        "XDG_STATE_HOME",
      ].sort(),
    );
    expect(seen.env.CLAUDE_CODE_MESSAGING_TOKEN).toBe(TOKEN);
    expect(seen.env.CLAUDE_CODE_MESSAGING_SOCKET).toBe("/tmp/cc-socks/4242.sock");
    expect(seen.env.CLAUDE_PID).toBe("4242");
    // A new session (detached): the watcher leads its own process group.
    const stat = readFileSync(`/proc/${pidfile?.pid}/stat`, "latin1");
    const fields = stat
      .slice(stat.lastIndexOf(")") + 1)
      .trim()
      .split(/\s+/);
    expect(fields[3]).toBe(String(pidfile?.pid)); // field 6: session id
    expect(statSync(layout.watcherLog("4242")).mode & 0o777).toBe(0o600);
    expect(readFileSync(layout.watcher("4242"), "utf8")).not.toContain(TOKEN);
  });

  test("running when the same session, socket, token and version; respawned on any change", async () => {
    expect((await ensure()).outcome).toBe("spawned");
    const first = readWatcherPidfile(layout, "4242")?.pid as number;
    expect(await ensure()).toEqual({ outcome: "running" });
    expect(await ensure({ token: "tok-changed" })).toEqual({ outcome: "respawned" });
    const second = readWatcherPidfile(layout, "4242")?.pid as number;
    expect(second).not.toBe(first);
    expect(processLiveness(first)).not.toBe("alive");
    const moved = await ensure({
      token: "tok-changed",
      map: map({ socket_path: "/tmp/cc-socks/other.sock" }),
    });
    expect(moved).toEqual({ outcome: "respawned" });
    expect(readWatcherPidfile(layout, "4242")?.socket_path).toBe("/tmp/cc-socks/other.sock");
  });

  test("a stale pidfile (dead pid) is replaced", async () => {
    const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    const pid = child.pid as number;
    const token = processStartToken(pid) as string;
    await new Promise((r) => child.once("exit", r));
    acquirePidfile(layout, "4242", {
      pid,
      start_token: token,
      brigade_session_id: "s-1",
      socket_path: "/tmp/cc-socks/4242.sock",
      token_sha256: tokenSha256(TOKEN),
      version: watcherVersion(entry),
    });
    const r = await ensure();
    expect(r).toEqual({ outcome: "respawned" });
    expect(readWatcherPidfile(layout, "4242")?.pid).not.toBe(pid);
  });

  test("a child that exits before its pidfile is reported, never thrown", async () => {
    const r = await ensure({
      env: { ...hookEnv(), XDG_STATE_HOME: join(base, "state") },
      waitMs: 3_000,
    });
    expect(r.outcome).toBe("spawned");
    const bad = join(base, "exit.cjs");
    writeFileSync(bad, "process.exit(3)");
    const options = { map: map({ claude_pid: 4343 }), entryScript: bad, token: "t" };
    expect(await ensure(options)).toEqual({ outcome: "failed", reason: "exited_early" });
    expect(await ensure({ ...options, entryScript: "relative.js" })).toEqual({
      outcome: "failed",
      reason: "entry_invalid",
    });
  });

  test("stopWatcher: SIGTERM, then compare-then-delete", async () => {
    await ensure();
    const pid = readWatcherPidfile(layout, "4242")?.pid as number;
    await stopWatcher({ layout, claudePid: "4242" });
    expect(processLiveness(pid)).not.toBe("alive");
    expect(existsSync(layout.watcher("4242"))).toBe(false);
    await stopWatcher({ layout, claudePid: "4242" }); // nothing left: a no-op
  });

  test("stopWatcher SIGKILLs a watcher that ignores SIGTERM", async () => {
    const stubborn = join(base, "stubborn.cjs");
    writeFileSync(
      stubborn,
      STUB.replace('process.on("SIGTERM", () => {', 'process.on("SIGTERM", () => {}); (() => {'),
    );
    await ensure({ entryScript: stubborn });
    const pid = readWatcherPidfile(layout, "4242")?.pid as number;
    const t0 = Date.now();
    await stopWatcher({ layout, claudePid: "4242", graceMs: 300 });
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(processLiveness(pid)).not.toBe("alive");
    expect(existsSync(layout.watcher("4242"))).toBe(false);
  });
});

describe("watcherEnvironment", () => {
  test("computes XDG_STATE_HOME when the layout is not what the environment resolves", () => {
    const env = watcherEnvironment(
      { HOME: "/home/dana", PATH: "/bin" },
      stateLayout("/srv/x/brigade"),
      "1",
      "",
      "t",
    );
    expect(env?.XDG_STATE_HOME).toBe("/srv/x");
    expect(
      watcherEnvironment({ HOME: "/home/dana" }, stateLayout("/srv/x/other"), "1", "", "t"),
    ).toBeUndefined();
  });
});
