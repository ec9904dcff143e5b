import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import {
  argvMayBypass,
  inboundGateOpen,
  launchBypasses,
  readClaudeArgv,
  SETTINGS_SETTLE_MS,
} from "./inbound-gate.ts";

let base: string;
let config: string;
let cwd: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "brigade-gate-"));
  config = join(base, "claude");
  cwd = join(base, "project");
  mkdirSync(config);
  mkdirSync(join(cwd, ".claude"), { recursive: true });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

test("the launch flags that bypass, or allow switching into bypass", () => {
  expect(argvMayBypass(["claude"])).toBe(false);
  expect(argvMayBypass(["claude", "--permission-mode", "plan"])).toBe(false);
  expect(argvMayBypass(["claude", "--dangerously-skip-permissions"])).toBe(true);
  expect(argvMayBypass(["claude", "--allow-dangerously-skip-permissions"])).toBe(true);
  expect(argvMayBypass(["claude", "--permission-mode", "bypassPermissions"])).toBe(true);
  expect(argvMayBypass(["claude", "--permission-mode=bypassPermissions"])).toBe(true);
  expect(readClaudeArgv(String(process.pid))).toContain(process.execPath);
});

test("open unless the session bypasses (or may) and the user settings do not accept", () => {
  const facts = { claudeConfigDir: config, cwd, argv: ["claude"] };
  expect(inboundGateOpen({ ...facts, permissionMode: "default" })).toEqual({ open: true });
  expect(inboundGateOpen({ ...facts, permissionMode: "bypassPermissions" })).toEqual({
    open: false,
    reason: "bypass",
  });
  expect(inboundGateOpen({ ...facts, permissionMode: "unknown" })).toEqual({ open: true });
  expect(
    inboundGateOpen({
      ...facts,
      permissionMode: "unknown",
      argv: ["claude", "--dangerously-skip-permissions"],
    }),
  ).toEqual({ open: false, reason: "bypass_possible" });
  // an unreadable argv may bypass; a settings defaultMode does
  expect(inboundGateOpen({ ...facts, permissionMode: undefined, argv: undefined }).open).toBe(
    false,
  );
  writeFileSync(
    join(cwd, ".claude", "settings.json"),
    '{"permissions": {"defaultMode": "bypassPermissions"}}',
  );
  expect(inboundGateOpen({ ...facts, permissionMode: undefined }).open).toBe(false);
  expect(launchBypasses(facts)).toBe(true);
  // the user's accept opens it whatever the mode, once Claude Code had the time to take it in
  writeFileSync(join(config, "settings.json"), '{"crossSessionInbound": "accept"}');
  expect(inboundGateOpen({ ...facts, permissionMode: "bypassPermissions" })).toEqual({
    open: false,
    reason: "settings_settling",
  });
  const later = Date.now() + SETTINGS_SETTLE_MS;
  expect(inboundGateOpen({ ...facts, permissionMode: "bypassPermissions", now: later })).toEqual({
    open: true,
  });
  // positive evidence only for writing the setting: an unreadable argv is none
  rmSync(join(cwd, ".claude", "settings.json"));
  expect(launchBypasses({ ...facts, argv: undefined })).toBe(false);
});
