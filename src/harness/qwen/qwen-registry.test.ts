import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import {
  findQwenSession,
  linuxProcessIdentity,
  type ProcessIdentity,
  parseQwenRecord,
  qwenRecordTrusted,
} from "./qwen-registry.ts";

/** The record a Qwen Code 0.24.4 TUI wrote (measured), with its token replaced. */
const MEASURED = {
  schemaVersion: 1,
  pid: 1137,
  procStart: "5ad60363-8a0d-4af9-b035-d97652b03db6:1549438",
  pidNs: 4026531836,
  sessionId: "7a2dba46-7b69-42c2-8843-4b18f48892d8",
  cwd: "/tmp/qwen-measure/run/proj",
  name: "proj-9e",
  startedAt: 1796431159152,
  qwenVersion: "0.24.4",
  kind: "tui",
  ipcPath: "/tmp/qwen-socks-b5e81d9f68bc4778/1137.sock",
  ipcToken: "0".repeat(64),
};

const identity = (ticks: string | undefined, ns = 4026531836): ProcessIdentity => ({
  bootId: () => "5ad60363-8a0d-4af9-b035-d97652b03db6",
  startTicks: () => ticks,
  pidNamespace: () => ns,
});

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("parseQwenRecord", () => {
  test("the measured record reads whole; the pid must be the file name's", () => {
    const text = JSON.stringify(MEASURED);
    const read = parseQwenRecord(text, "1137.json");
    expect(read).toEqual({
      ok: true,
      record: {
        pid: 1137,
        procStart: MEASURED.procStart,
        pidNs: MEASURED.pidNs,
        sessionId: MEASURED.sessionId,
        cwd: MEASURED.cwd,
        ipcPath: MEASURED.ipcPath,
        ipcToken: MEASURED.ipcToken,
      },
    });
    expect(parseQwenRecord(text, "1137-0a1b2c3d.json").ok).toBe(true);
    expect(parseQwenRecord(text, "01137.json")).toEqual({ ok: false, reason: "malformed" });
    expect(parseQwenRecord(text, "1138.json")).toEqual({ ok: false, reason: "pid_mismatch" });
  });

  test("a higher schema is skipped, junk never throws, a bad token or path reads as absent", () => {
    expect(parseQwenRecord(JSON.stringify({ ...MEASURED, schemaVersion: 2 }), "1137.json")).toEqual(
      {
        ok: false,
        reason: "other_schema",
      },
    );
    for (const junk of [
      "",
      "{",
      "[]",
      "null",
      '"x"',
      JSON.stringify({ ...MEASURED, sessionId: "a b" }),
    ]) {
      expect(parseQwenRecord(junk, "1137.json").ok).toBe(false);
    }
    const odd = parseQwenRecord(
      JSON.stringify({ ...MEASURED, ipcToken: "XYZ", ipcPath: "rel.sock" }),
      "1137.json",
    );
    expect(odd.ok && "ipcToken" in odd.record).toBe(false);
    expect(odd.ok && "ipcPath" in odd.record).toBe(false);
  });
});

describe("qwenRecordTrusted", () => {
  test("only while the pid's start ticks, the boot and the namespace still match", () => {
    const read = parseQwenRecord(JSON.stringify(MEASURED), "1137.json");
    if (!read.ok) throw new Error("unreadable");
    expect(qwenRecordTrusted(read.record, identity("1549438"))).toBe(true);
    expect(qwenRecordTrusted(read.record, identity("1549439"))).toBe(false);
    expect(qwenRecordTrusted(read.record, identity(undefined))).toBe(false);
    expect(qwenRecordTrusted(read.record, identity("1549438", 1))).toBe(false);
    expect(qwenRecordTrusted({ ...read.record, procStart: null }, identity("1549438"))).toBe(false);
  });

  test("this process is who /proc says it is", () => {
    const me = linuxProcessIdentity();
    const ticks = me.startTicks(process.pid);
    expect(ticks).toMatch(/^[0-9]+$/);
    const record = {
      pid: process.pid,
      procStart: `${me.bootId()}:${ticks}`,
      pidNs: me.pidNamespace() ?? null,
      sessionId: "s",
      cwd: "/",
    };
    expect(qwenRecordTrusted(record, me)).toBe(true);
  });
});

describe("findQwenSession", () => {
  test("finds the trusted record of a pid (and session), tells a stale one from none", () => {
    const home = mkdtempSync(join(tmpdir(), "qwen-home-"));
    dirs.push(home);
    mkdirSync(join(home, "sessions"));
    writeFileSync(join(home, "sessions", "1137.json"), JSON.stringify(MEASURED));
    const found = findQwenSession(home, 1137, identity("1549438"));
    expect(found.ok && found.record.sessionId).toBe(MEASURED.sessionId);
    expect(findQwenSession(home, 1137, identity("1549438"), "other")).toEqual({
      ok: false,
      reason: "no_record",
    });
    expect(findQwenSession(home, 1137, identity("1"))).toEqual({
      ok: false,
      reason: "not_trusted",
    });
    expect(findQwenSession(home, 99, identity("1549438"))).toEqual({
      ok: false,
      reason: "no_record",
    });
    const { ipcPath: _p, ...noInbox } = MEASURED;
    writeFileSync(join(home, "sessions", "1137.json"), JSON.stringify(noInbox));
    expect(findQwenSession(home, 1137, identity("1549438"))).toEqual({
      ok: false,
      reason: "no_inbox",
    });
  });
});
