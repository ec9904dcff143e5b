import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { sampleByPidMap } from "../../../test/support/by-pid-map.ts";
import { until } from "../../../test/support/until.ts";
import { type StateLayout, stateLayout } from "../state/index.ts";
import { processLiveness, stopWatcher } from "../watcher/index.ts";
import { ensurePushLane, pushLaneEnvironment } from "./ensure-push-lane.ts";

// A stand-in lane: records argv, cwd and environment, takes the pidfile as the real one does
// (its own pid and start token, the session of STUB_SESSION), then waits for SIGTERM.
const STUB = String.raw`
const fs = require("node:fs"); const path = require("node:path"); const crypto = require("node:crypto");
const env = process.env;
fs.writeFileSync(path.join(env.HOME, "stub-" + process.pid + ".json"),
  JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd(), env }));
if (env.QWEN_HOME === "exit") process.exit(0);
const stat = fs.readFileSync("/proc/self/stat", "latin1");
const start = stat.slice(stat.lastIndexOf(")") + 1).trim().split(/\s+/)[19];
const root = path.join(env.XDG_STATE_HOME, "brigade", "watchers");
fs.mkdirSync(root, { recursive: true, mode: 0o700 });
const file = path.join(root, process.argv[5] + ".json");
const sha = (s) => crypto.createHash("sha256").update(s).digest("hex");
fs.writeFileSync(file, JSON.stringify({ pid: process.pid, start_token: "linux:" + start,
  brigade_session_id: "s-1", socket_path: "", token_sha256: sha(""),
  version: "0.1.0+" + sha(path.resolve(process.argv[1])).slice(0, 12) }), { mode: 0o600, flag: "wx" });
process.on("SIGTERM", () => { try { fs.rmSync(file); } catch {} process.exit(0); });
setInterval(() => {}, 1000);
`;

let base: string;
let layout: StateLayout;
let entry: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "brigade-ensure-lane-"));
  layout = stateLayout(join(base, "state", "brigade"));
  entry = join(base, "stub-lane.cjs");
  writeFileSync(entry, STUB);
});
afterEach(async () => {
  await stopWatcher({ layout, claudePid: "4242" });
  rmSync(base, { recursive: true, force: true });
});

const hookEnv = (over: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: base,
  XDG_STATE_HOME: join(base, "state"),
  XDG_RUNTIME_DIR: join(base, "run"),
  QWEN_HOME: join(base, "qwen"),
  QWEN_CODE_MESSAGING_TOKEN: "child-token-never-passed",
  QWEN_CODE_MESSAGING_SOCKET: "/tmp/never.sock",
  BRIGADE_STATE_DIR: "/elsewhere",
  NODE_OPTIONS: "--require /evil.js",
  ...over,
});

function stubs(): { argv: string[]; cwd: string; env: Record<string, string> }[] {
  return readdirSync(base)
    .filter((n) => /^stub-\d+\.json$/.test(n))
    .map((n) => JSON.parse(readFileSync(join(base, n), "utf8")));
}

describe("ensurePushLane", () => {
  test("the environment is an allow-list: HOME, PATH, TMPDIR, XDG_* and the client's own names", () => {
    expect(pushLaneEnvironment(hookEnv(), ["QWEN_HOME"])).toEqual({
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: base,
      XDG_STATE_HOME: join(base, "state"),
      XDG_RUNTIME_DIR: join(base, "run"),
      QWEN_HOME: join(base, "qwen"),
    });
  });

  test("spawns one detached lane (brigade host-watch <client> --host-pid <pid>); a second start finds it running", async () => {
    const options = {
      layout,
      map: sampleByPidMap(),
      client: "qwen",
      passed: ["QWEN_HOME"],
      entryScript: entry,
      env: hookEnv(),
    };
    expect(await ensurePushLane(options)).toEqual({ outcome: "spawned" });
    const [first] = stubs();
    expect(first?.argv).toEqual(["host-watch", "qwen", "--host-pid", "4242"]);
    expect(first?.cwd).toBe(base);
    expect(first?.env.QWEN_CODE_MESSAGING_TOKEN).toBeUndefined();
    expect(first?.env.NODE_OPTIONS).toBeUndefined();
    expect(first?.env.QWEN_HOME).toBe(join(base, "qwen"));
    expect(await ensurePushLane(options)).toEqual({ outcome: "running" });
    expect(stubs()).toHaveLength(1);
  });

  test("a lane of another session of the same process is stopped and replaced", async () => {
    const options = {
      layout,
      map: sampleByPidMap(),
      client: "qwen",
      entryScript: entry,
      env: hookEnv(),
    };
    expect(await ensurePushLane(options)).toEqual({ outcome: "spawned" });
    const old = readFileSync(join(layout.root, "watchers", "4242.json"), "utf8");
    const oldPid = (JSON.parse(old) as { pid: number }).pid;
    const next = { ...options, map: sampleByPidMap({ brigade_session_id: "s-2" }) };
    // The stub always takes the pidfile for s-1: the new lane is spawned, the old one stopped.
    await ensurePushLane(next);
    await until("the old lane gone", () => processLiveness(oldPid) !== "alive", 5_000);
    expect(stubs()).toHaveLength(2);
  });

  test("a lane that ends before taking its pidfile is exited_early", async () => {
    const options = {
      layout,
      map: sampleByPidMap(),
      client: "qwen",
      passed: ["QWEN_HOME"],
      entryScript: entry,
      env: hookEnv({ QWEN_HOME: "exit" }),
    };
    expect(await ensurePushLane(options)).toEqual({ outcome: "failed", reason: "exited_early" });
    expect(await ensurePushLane({ ...options, entryScript: "relative.js" })).toEqual({
      outcome: "failed",
      reason: "entry_invalid",
    });
  });
});
