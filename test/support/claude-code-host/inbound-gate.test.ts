import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { inboundGate } from "./inbound-gate.ts";

let root: string;
let user: string;
let project: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "cc-gate-"));
  user = join(root, "config", "settings.json");
  project = join(root, "repo");
  mkdirSync(join(root, "config"), { recursive: true });
  mkdirSync(join(project, ".claude"), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const gate = (permissionMode = "default") =>
  inboundGate({ permissionMode, userSettingsPath: user, projectDir: project });
const setting = (path: string, value: unknown) =>
  writeFileSync(path, JSON.stringify({ model: "x", crossSessionInbound: value }));

describe("the stand-in's inbound gate (docs/spec/cross-session.md §12 step 4, docs/spec/claude-code.md §4)", () => {
  test("no setting: a bypassing receiver holds a post with no from-mode, a prompting one accepts", () => {
    expect(gate("bypassPermissions")).toBe("hold");
    expect(gate("default")).toBe("accept");
    expect(gate("plan")).toBe("accept");
  });

  test("the user setting decides; an unrecognised value holds", () => {
    setting(user, "accept");
    expect(gate("bypassPermissions")).toBe("accept");
    setting(user, "refuse");
    expect(gate("default")).toBe("refuse");
    setting(user, "ACCEPT");
    expect(gate("default")).toBe("hold");
  });

  test("project and local settings only tighten", () => {
    setting(user, "accept");
    setting(join(project, ".claude", "settings.local.json"), "hold");
    expect(gate("bypassPermissions")).toBe("hold");
    setting(join(project, ".claude", "settings.json"), "refuse");
    expect(gate("default")).toBe("refuse");
    rmSync(user);
    rmSync(join(project, ".claude", "settings.json"));
    setting(join(project, ".claude", "settings.local.json"), "accept");
    // A project accept cannot loosen the permission-mode rule.
    expect(gate("bypassPermissions")).toBe("hold");
  });

  test("malformed files are ignored", () => {
    writeFileSync(user, "{not json");
    writeFileSync(join(project, ".claude", "settings.json"), "[1]");
    expect(gate("default")).toBe("accept");
    expect(gate("bypassPermissions")).toBe("hold");
  });
});
