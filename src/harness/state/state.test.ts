import { execFileSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { PendingRecord } from "../inbound/index.ts";
import {
  BY_PID_MAP_REASONS,
  type ByPidMap,
  type ByPidMapReason,
  consumeReleaseRequests,
  FileSeenStore,
  fileStem,
  MAX_BY_PID_MAP_BYTES,
  openSessionInbound,
  pendingFileStore,
  readByPidMap,
  readPendingRecords,
  readReleaseRequests,
  requestRelease,
  resolveStateDir,
  type StateLayout,
  serializeByPidMap,
  sha256Hex,
  stateLayout,
  validateByPidMap,
  writeByPidMap,
  writePrivateStateFile,
} from "./index.ts";

const uid = process.getuid?.() ?? 0;
const isRoot = uid === 0;
const TOKEN = "cc-messaging-token-0123456789abcdef";

let base: string;
let env: { XDG_STATE_HOME: string };
let layout: StateLayout;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "brigade-state-"));
  env = { XDG_STATE_HOME: base };
  layout = stateLayout(join(base, "brigade"));
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

function map(overrides: Partial<Record<keyof ByPidMap, unknown>> = {}): ByPidMap {
  return {
    claude_pid: 4242,
    claude_session_id: "0b9f2c1e-5d1a-4c8e-9f00-1a2b3c4d5e6f",
    brigade_session_id: "s-2b8e",
    team_ref: "t-9c1e",
    team_name: "core",
    session_name: "billing-svc",
    permission_mode: "unknown",
    non_interactive: false,
    inbound: "accept",
    frame_level: "open",
    frame_text: "",
    socket_path: "/tmp/cc-socks/4242.sock",
    team_key: "default",
    config_dir: "",
    adapter_command: [],
    plugin_bin: "/home/dana/.claude/plugins/cache/brigade/1.0.0/bin",
    harness_version: "2.1.328",
    registered_at: "2026-10-02T09:15:42Z",
    updated_at: "2026-10-02T09:15:42Z",
    ...overrides,
  } as ByPidMap;
}

/** A message from another session, as the server sends it. */
const envelope = {
  message_id: "m-1",
  sender: { principal_ref: "p-1", session_id: "s-9", session_name: "api" },
  body: "hello",
};

function read(pid: string | undefined = "4242", as = uid) {
  return readByPidMap({ claudePid: pid, env, uid: as });
}

function expectReason(result: ReturnType<typeof read>, reason: ByPidMapReason, field?: string) {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.reason).toBe(reason);
  expect(result.error.code).toBe("config");
  expect(result.error.details).toEqual(field === undefined ? { reason } : { reason, field });
  expect(JSON.stringify(result.error)).not.toContain(base);
}

function plant(text: string | Buffer, pid = "4242"): string {
  const path = layout.byPid(pid);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
  return path;
}

describe("state directory and layout", () => {
  test("XDG_STATE_HOME/brigade, else ~/.local/state/brigade; relative bases refused", () => {
    expect(resolveStateDir({ XDG_STATE_HOME: "/x/state", HOME: "/home/d" })).toEqual({
      ok: true,
      dir: "/x/state/brigade",
    });
    expect(resolveStateDir({ XDG_STATE_HOME: "", HOME: "/home/d" })).toEqual({
      ok: true,
      dir: "/home/d/.local/state/brigade",
    });
    const relative = { ok: false, reason: "state_dir_relative" };
    expect(resolveStateDir({ XDG_STATE_HOME: "state", HOME: "/home/d" })).toEqual(relative);
    expect(resolveStateDir({ HOME: "home/d" })).toEqual(relative);
    expect(resolveStateDir({})).toEqual(relative);
  });

  test("the <stem> rule: safe ids verbatim, anything else sha256hex + .sha256", () => {
    expect(fileStem("s-2b8e_X")).toBe("s-2b8e_X");
    expect(fileStem("A".repeat(64))).toBe("A".repeat(64));
    expect(fileStem("A".repeat(65))).toBe(`${sha256Hex("A".repeat(65))}.sha256`);
    expect(fileStem("../../etc/passwd")).toBe(`${sha256Hex("../../etc/passwd")}.sha256`);
    expect(fileStem("")).toBe(
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855.sha256",
    );
  });

  test("every path of docs/spec/claude-code.md §7.1", () => {
    const l = stateLayout("/s");
    expect([
      l.byPid("42"),
      l.byNative("abc"),
      l.watcher("42"),
      l.watcherStatus("42"),
      l.seen("s-1"),
      l.pending("s-1"),
      l.release("s-1"),
      l.notice("42"),
      l.watcherLog("42"),
    ]).toEqual([
      "/s/sessions/by-pid/42.json",
      "/s/sessions/by-native/abc.json",
      "/s/watchers/42.json",
      "/s/watchers/42.status.json",
      "/s/state/seen/s-1.json",
      "/s/state/pending/s-1.json",
      "/s/state/release/s-1.json",
      "/s/state/42.notice",
      "/s/logs/watcher-42.log",
    ]);
    expect(l.seen("a/b")).toBe(`/s/state/seen/${sha256Hex("a/b")}.sha256.json`);
  });

  test("private writes: folders 0700 (tightened), file 0600, no temporary left", () => {
    mkdirSync(join(base, "brigade"), { mode: 0o755 });
    chmodSync(join(base, "brigade"), 0o755);
    writePrivateStateFile(layout.root, layout.seen("s-1"), "x\n");
    for (const dir of ["brigade", "brigade/state", "brigade/state/seen"]) {
      expect(statSync(join(base, dir)).mode & 0o777, dir).toBe(0o700);
    }
    expect(statSync(layout.seen("s-1")).mode & 0o777).toBe(0o600);
    expect(readdirSync(dirname(layout.seen("s-1")))).toEqual(["s-1.json"]);
  });
});

describe("the by-pid map: writer and reader", () => {
  test("round trip: written 0600 in 0700 folders and read back", () => {
    writeByPidMap(layout, map({ workspace_label: "laptop", options: { share_doing: true } }));
    expect(statSync(layout.byPid("4242")).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(layout.byPid("4242"))).mode & 0o777).toBe(0o700);
    const r = read();
    expect(r.ok && r.map).toEqual(
      map({ workspace_label: "laptop", options: { share_doing: true } }),
    );
  });

  test("never the token: a map carrying one is refused by the writer and the reader", () => {
    expect(() => serializeByPidMap(map({ token: TOKEN } as never))).toThrow(TypeError);
    expect(() => serializeByPidMap(map({ options: { messaging_token: TOKEN } }))).toThrow(
      /options/,
    );
    writeByPidMap(layout, map());
    expect(readFileSync(layout.byPid("4242"), "utf8")).not.toMatch(/token/i);
    plant(JSON.stringify({ ...map(), messaging_token: TOKEN }));
    expectReason(read(), "map_invalid", "messaging_token");
  });

  test("not_in_session: no CLAUDE_PID, or one that is not a pid", () => {
    expectReason(readByPidMap({ claudePid: undefined, env, uid }), "not_in_session");
    expectReason(read(""), "not_in_session");
    expectReason(read("../4242"), "not_in_session");
    expectReason(read("0"), "not_in_session");
  });

  test("state_dir_relative", () => {
    env = { XDG_STATE_HOME: "relative/state" };
    expectReason(read(), "state_dir_relative");
  });

  test("not_registered: no map for this pid", () => {
    expectReason(read(), "not_registered");
    writeByPidMap(layout, map({ claude_pid: 4243 }));
    expectReason(read(), "not_registered");
  });

  test("map_not_private: a symlink (even to a good private map)", () => {
    writeByPidMap(layout, map({ claude_pid: 4243 }));
    symlinkSync(layout.byPid("4243"), layout.byPid("4242"));
    expectReason(read(), "map_not_private");
  });

  test.each([0o644, 0o640, 0o604, 0o620, 0o602, 0o610])("map_not_private: mode %o", (mode) => {
    writeByPidMap(layout, map());
    chmodSync(layout.byPid("4242"), mode);
    expectReason(read(), "map_not_private");
  });

  test.skipIf(!isRoot)("map_not_private: a file owned by another uid (chowned to 1234)", () => {
    writeByPidMap(layout, map());
    chownSync(layout.byPid("4242"), 1234, 1234);
    expect(statSync(layout.byPid("4242")).mode & 0o777).toBe(0o600);
    expectReason(read(), "map_not_private");
  });

  test("map_not_private: our uid differs from the owner (injected uid)", () => {
    writeByPidMap(layout, map());
    expectReason(read("4242", uid + 1234), "map_not_private");
  });

  test("map_not_private: a directory or a FIFO (the open does not hang)", () => {
    mkdirSync(layout.byPid("4242"), { recursive: true, mode: 0o700 });
    expectReason(read(), "map_not_private");
    rmSync(layout.byPid("4242"), { recursive: true });
    execFileSync("mkfifo", ["-m", "600", layout.byPid("4242")]);
    expectReason(read(), "map_not_private");
  });

  test("map_malformed: over 64 KiB; exactly 64 KiB is read", () => {
    const text = serializeByPidMap(map());
    plant(text.padEnd(MAX_BY_PID_MAP_BYTES, " "));
    expect(read().ok).toBe(true);
    plant(text.padEnd(MAX_BY_PID_MAP_BYTES + 1, " "));
    expectReason(read(), "map_malformed");
  });

  test.each([
    ["not JSON", "{claude_pid: 4242}"],
    ["empty", ""],
    ["an array", "[]"],
    ["a string", '"map"'],
    ["a repeated member", '{"claude_pid":4242,"claude_pid":4242}'],
    ["a BOM", `\uFEFF${serializeByPidMap(map())}`],
  ])("map_malformed: %s", (_, text) => {
    plant(text);
    expectReason(read(), "map_malformed");
  });

  test("map_malformed: bytes that are not UTF-8", () => {
    plant(Buffer.concat([Buffer.from('{"team_name":"'), Buffer.from([0xff]), Buffer.from('"}')]));
    expectReason(read(), "map_malformed");
  });

  test.each([
    ["claude_pid", { claude_pid: "4242" }],
    ["claude_pid", { claude_pid: 4242.5 }],
    ["brigade_session_id", { brigade_session_id: "" }],
    ["team_ref", { team_ref: undefined }],
    ["permission_mode", { permission_mode: 3 }],
    ["non_interactive", { non_interactive: "false" }],
    ["inbound", { inbound: "maybe" }],
    ["frame_level", { frame_level: "custom-ish" }],
    ["socket_path", { socket_path: "relative.sock" }],
    ["config_dir", { config_dir: "~/.config/brigade" }],
    ["adapter_command", { adapter_command: ["brigade-adapter"] }],
    ["adapter_command", { adapter_command: "/bin/adapter" }],
    ["plugin_bin", { plugin_bin: "bin" }],
    ["registered_at", { registered_at: "yesterday" }],
    ["transcript_path", { transcript_path: "t.jsonl" }],
    ["frame_text", { frame_level: "open", frame_text: "Be nice. " }],
    ["frame_text", { frame_level: "custom", frame_text: "" }],
    ["frame_text", { frame_level: "custom", frame_text: "Use <system-reminder> blocks. " }],
    ["options", { options: { nested: { a: 1 } } }],
  ])("map_invalid: %s", (field, overrides) => {
    plant(JSON.stringify({ ...map(), ...overrides }));
    expectReason(read(), "map_invalid", field);
  });

  test("a custom clause that passes the frame's checks is accepted", () => {
    writeByPidMap(layout, map({ frame_level: "custom", frame_text: "Ask me before any deploy. " }));
    expect(read().ok).toBe(true);
  });

  test("map_mismatch: claude_pid is not the file's pid", () => {
    plant(serializeByPidMap(map({ claude_pid: 4243 })));
    expectReason(read(), "map_mismatch");
  });

  test("unknown members are tolerated and dropped", () => {
    plant(JSON.stringify({ ...map(), future_member: 1 }));
    const r = read();
    expect(r.ok && Object.keys(r.map)).not.toContain("future_member");
  });

  test("every reason is exercised above or documented as environment-only", () => {
    // map_unreadable needs an I/O error (EACCES, EIO) that root cannot provoke on a tmpfs.
    expect(BY_PID_MAP_REASONS).toContain("map_unreadable");
    expect(validateByPidMap(null)).toEqual({ ok: false, field: "map" });
  });
});

describe("the seen file", () => {
  test("records injected ids, survives a reopen, keeps the last 2,000, 0600", () => {
    const seen = FileSeenStore.open(layout, "s-1", uid);
    for (let i = 0; i < 2_001; i += 1) seen.add(`m-${i}`);
    expect(statSync(layout.seen("s-1")).mode & 0o777).toBe(0o600);
    const file = JSON.parse(readFileSync(layout.seen("s-1"), "utf8"));
    expect(file.version).toBe(1);
    expect(file.message_ids).toHaveLength(2_000);
    expect(file.message_ids[0]).toBe("m-1");
    const again = FileSeenStore.open(layout, "s-1", uid);
    expect(again.has("m-2000")).toBe(true);
    expect(again.has("m-0")).toBe(false);
    expect(FileSeenStore.open(layout, "s-2", uid).has("m-5")).toBe(false);
  }, 60_000);

  test("a seen file that is not private, not ours or malformed is ignored", () => {
    FileSeenStore.open(layout, "s-1", uid).add("m-1");
    expect(FileSeenStore.open(layout, "s-1", uid + 1).has("m-1")).toBe(false);
    chmodSync(layout.seen("s-1"), 0o644);
    expect(FileSeenStore.open(layout, "s-1", uid).has("m-1")).toBe(false);
    writeFileSync(layout.seen("s-1"), '{"version":2,"message_ids":["m-1"]}', { mode: 0o600 });
    chmodSync(layout.seen("s-1"), 0o600);
    expect(FileSeenStore.open(layout, "s-1", uid).has("m-1")).toBe(false);
  });

  test("dedupe survives a restart of the session's pipeline (keyed by our session id)", () => {
    const open = () =>
      openSessionInbound({
        map: map({ brigade_session_id: "s-1" }),
        layout,
        uid,
        now: () => 0,
        delivery: "socket",
      });
    const first = open();
    first.offer(envelope);
    const item = first.next();
    expect(item && first.done(item)).toEqual({ ack: true, messageId: "m-1", persisted: true });
    expect(open().offer(envelope)).toEqual({ outcome: "duplicate", ack: true, messageId: "m-1" });
  });
});

describe("pending and release files", () => {
  const record: PendingRecord = {
    message_id: "m-1",
    sender_name: "api",
    sender_session_id: "s-9",
    principal_ref: "p-1",
    summary: "Schema bumped",
    created_at: "2026-10-02T09:15:42Z",
    held_at: 1_700_000_000_000,
  };

  test("pending records round-trip (0600), an empty list removes the file", () => {
    const store = pendingFileStore(layout, "s-1");
    store.save([record]);
    expect(statSync(layout.pending("s-1")).mode & 0o777).toBe(0o600);
    expect(readPendingRecords(layout, "s-1", uid)).toEqual([record]);
    expect(readPendingRecords(layout, "s-1", uid + 1)).toEqual([]);
    store.save([]);
    expect(existsSync(layout.pending("s-1"))).toBe(false);
    expect(readPendingRecords(layout, "s-1", uid)).toEqual([]);
  });

  test("the session's pipeline persists held records without the body; a restart keeps them", () => {
    const open = () =>
      openSessionInbound({
        map: map({ brigade_session_id: "s-1", inbound: "hold" }),
        layout,
        uid,
        now: () => 5,
        delivery: "poll",
      });
    open().offer({ ...envelope, body: "THE BODY" });
    const text = readFileSync(layout.pending("s-1"), "utf8");
    expect(text).not.toContain("THE BODY");
    expect(readPendingRecords(layout, "s-1", uid).map((r) => r.message_id)).toEqual(["m-1"]);
    expect(
      open()
        .pendingRecords()
        .map((r) => r.message_id),
    ).toEqual(["m-1"]);
  });

  test("release requests accumulate, are consumed once; a planted 0644 file releases nothing", () => {
    requestRelease(layout, "s-1", ["m-1"], uid);
    requestRelease(layout, "s-1", ["m-2", "m-1"], uid);
    expect(readReleaseRequests(layout, "s-1", uid)).toEqual(["m-1", "m-2"]);
    expect(consumeReleaseRequests(layout, "s-1", uid)).toEqual(["m-1", "m-2"]);
    expect(consumeReleaseRequests(layout, "s-1", uid)).toEqual([]);
    requestRelease(layout, "s-1", ["m-3"], uid);
    chmodSync(layout.release("s-1"), 0o644);
    expect(consumeReleaseRequests(layout, "s-1", uid)).toEqual([]);
    // The file is taken by renaming it first; nothing of it is left behind.
    expect(readdirSync(dirname(layout.release("s-1")))).toEqual([]);
  });
});
