import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import {
  openCodeDoorAddress,
  openCodeDoorAddressPath,
  openOpenCodeSessionDoor,
  readOpenCodeDoorAddress,
  writeOpenCodeDoorAddress,
} from "./opencode-door-address.ts";
import { parseOpenCodeHookInput } from "./opencode-hook.ts";

let dir: string | undefined;

afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const uid = process.getuid?.() ?? 0;

describe("the door address of an OpenCode session", () => {
  test("written only for a loopback URL whose port this very process listens on; read back only for its session", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const url = `http://127.0.0.1:${port}/`;
      const address = openCodeDoorAddress("ses_abc", url, process.pid);
      expect(address).toEqual({
        session_id: "ses_abc",
        server_url: `http://127.0.0.1:${port}`,
        host_pid: process.pid,
      });
      expect(openCodeDoorAddress("ses_abc", url, process.ppid)).toBeUndefined();
      expect(openCodeDoorAddress("ses_abc", "http://localhost:4096/", process.pid)).toBeUndefined();
      expect(openCodeDoorAddress("not-a-session", url, process.pid)).toBeUndefined();
      dir = mkdtempSync(join(tmpdir(), "oc-address-"));
      const env = { HOME: dir };
      if (address === undefined) throw new Error("unreachable");
      expect(writeOpenCodeDoorAddress(env, address)).toBe(true);
      const path = openCodeDoorAddressPath(env, "ses_abc") ?? "";
      expect(path).toBe(
        join(dir, ".local", "state", "brigade", "sessions", "opencode-doors", "ses_abc.json"),
      );
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(readOpenCodeDoorAddress(env, "ses_abc", uid)).toEqual(address);
      expect(readOpenCodeDoorAddress(env, "ses_other", uid)).toBeUndefined();
      const context = {
        settleFiles: async () => "none" as const,
        pipeline: {
          peek: () => undefined,
          next: () => undefined,
          done: () => ({ ack: false }) as const,
        },
        pacer: { nextPostAt: (now: number) => now, record: () => {}, observeClaudeQueue: () => {} },
        textOf: () => "",
        report: () => {},
        ack: () => {},
        log: () => {},
        now: Date.now,
      };
      const opened = openOpenCodeSessionDoor("ses_abc", process.pid, env, uid, context);
      expect(opened.ok && opened.heldForPerson).toBe(false);
      expect(opened.ok).toBe(true);
      expect(openOpenCodeSessionDoor("ses_abc", process.ppid, env, uid, context)).toEqual({
        ok: false,
        reason: "opencode_no_address",
      });
      expect(openOpenCodeSessionDoor("ses_none", process.pid, env, uid, context)).toEqual({
        ok: false,
        reason: "opencode_no_address",
      });
      // A file naming another session, or a URL off this machine, is no address.
      writeFileSync(path, JSON.stringify({ ...address, server_url: "http://10.0.0.1:1" }), {
        mode: 0o600,
      });
      expect(readOpenCodeDoorAddress(env, "ses_abc", uid)).toBeUndefined();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test("the plugin's document: a bad member reads as nothing, never throws", () => {
    expect(parseOpenCodeHookInput("not json")).toBeUndefined();
    expect(parseOpenCodeHookInput("[]")).toBeUndefined();
    expect(
      parseOpenCodeHookInput(
        JSON.stringify({
          session_id: "ses_1/../x",
          cwd: "relative",
          server_url: 3,
          opencode_version: "1.x",
        }),
      ),
    ).toEqual({ sessionId: "", cwd: "", serverUrl: "", version: "unknown" });
  });
});
