import { spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { type StateLayout, stateLayout } from "../state/index.ts";
import { processStartToken } from "./process-probe.ts";
import {
  acquirePidfile,
  deletePidfileIfNames,
  isWatcherRunning,
  readWatcherPidfile,
  readWatcherStatus,
  tokenSha256,
  type WatcherPidfile,
  watcherStatusPath,
  writeWatcherNotice,
  writeWatcherStatus,
} from "./watcher-files.ts";

let base: string;
let layout: StateLayout;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "brigade-watcher-files-"));
  layout = stateLayout(join(base, "brigade"));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const ours = (): WatcherPidfile => ({
  pid: process.pid,
  start_token: processStartToken(process.pid) as string,
  brigade_session_id: "s-1",
  socket_path: "/tmp/cc-socks/4242.sock",
  token_sha256: tokenSha256("secret-token"),
  version: "0.1.0+abc",
});

describe("the pidfile", () => {
  test("created exclusively, 0600 in a 0700 folder, never holding the token", () => {
    expect(acquirePidfile(layout, "4242", ours())).toEqual({ outcome: "acquired" });
    const path = layout.watcher("4242");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(layout.root, "watchers")).mode & 0o777).toBe(0o700);
    expect(readFileSync(path, "utf8")).not.toContain("secret-token");
    expect(readWatcherPidfile(layout, "4242")).toEqual(ours());
    expect(isWatcherRunning(layout, "4242")).toBe(true);
  });

  test("single instance: a second acquisition while the holder lives is busy", () => {
    acquirePidfile(layout, "4242", ours());
    const other = { ...ours(), brigade_session_id: "s-2" };
    expect(acquirePidfile(layout, "4242", other)).toEqual({ outcome: "busy", holder: ours() });
    expect(readWatcherPidfile(layout, "4242")?.brigade_session_id).toBe("s-1");
  });

  test("a pidfile of a dead pid is stale and replaced", async () => {
    const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    const pid = child.pid as number;
    const token = processStartToken(pid) ?? "linux:1";
    await new Promise((r) => child.once("exit", r));
    acquirePidfile(layout, "4242", { ...ours(), pid, start_token: token });
    expect(isWatcherRunning(layout, "4242")).toBe(false);
    expect(acquirePidfile(layout, "4242", ours())).toEqual({ outcome: "acquired" });
    expect(readWatcherPidfile(layout, "4242")?.pid).toBe(process.pid);
  });

  test("a live pid with another start token (pid reuse) is stale and replaced", () => {
    acquirePidfile(layout, "4242", { ...ours(), start_token: "linux:1" });
    expect(isWatcherRunning(layout, "4242")).toBe(false);
    expect(acquirePidfile(layout, "4242", ours())).toEqual({ outcome: "acquired" });
    expect(readWatcherPidfile(layout, "4242")?.start_token).toBe(ours().start_token);
  });

  test("a garbage pidfile is replaced; a non-private one is not trusted", () => {
    acquirePidfile(layout, "4242", ours());
    writeFileSync(layout.watcher("4242"), "not json", { mode: 0o600 });
    expect(readWatcherPidfile(layout, "4242")).toBeUndefined();
    expect(acquirePidfile(layout, "4242", ours())).toEqual({ outcome: "acquired" });
    chmodSync(layout.watcher("4242"), 0o644);
    expect(readWatcherPidfile(layout, "4242")).toBeUndefined();
    expect(isWatcherRunning(layout, "4242")).toBe(false);
  });

  test("compare-then-delete removes only a pidfile that still names us", () => {
    acquirePidfile(layout, "4242", ours());
    expect(deletePidfileIfNames(layout, "4242", process.pid, "linux:other")).toBe(false);
    expect(deletePidfileIfNames(layout, "4242", process.pid + 1, ours().start_token)).toBe(false);
    expect(existsSync(layout.watcher("4242"))).toBe(true);
    expect(deletePidfileIfNames(layout, "4242", process.pid, ours().start_token)).toBe(true);
    expect(existsSync(layout.watcher("4242"))).toBe(false);
    expect(deletePidfileIfNames(layout, "4242", process.pid, ours().start_token)).toBe(false);
  });
});

describe("the status and notice files", () => {
  test("status round-trips; an invalid one reads as undefined", () => {
    const status = {
      version: 1 as const,
      pid: 5150,
      brigade_session_id: "s-1",
      state: "live" as const,
      last_delivery_at: null,
      delivered: 0,
      updated_at: "2026-10-02T09:15:42.000Z",
    };
    expect(writeWatcherStatus(layout, "4242", status)).toBe(true);
    expect(watcherStatusPath(layout, "4242")).toBe(join(layout.root, "watchers/4242.status.json"));
    expect(statSync(watcherStatusPath(layout, "4242")).mode & 0o777).toBe(0o600);
    expect(readWatcherStatus(layout, "4242")).toEqual(status);
    writeWatcherStatus(layout, "4242", { ...status, state: "bogus" as "live" });
    expect(readWatcherStatus(layout, "4242")).toBeUndefined();
  });

  test("the notice is one Brigade line, replacing an unprinted one", () => {
    expect(writeWatcherNotice(layout, "4242", "Brigade: first.")).toBe(true);
    expect(writeWatcherNotice(layout, "4242", "Brigade: second.")).toBe(true);
    expect(readFileSync(layout.notice("4242"), "utf8")).toBe("Brigade: second.\n");
    expect(writeWatcherNotice(layout, "4242", "not ours")).toBe(false);
    expect(writeWatcherNotice(layout, "4242", "Brigade: two\nlines")).toBe(false);
  });
});
