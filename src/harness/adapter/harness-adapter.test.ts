import { describe, expect, test } from "vitest";
import { harnessConfigDir } from "./index.ts";

describe("harnessConfigDir", () => {
  test("an absolute plugin option wins, even over BRIGADE_CONFIG_DIR outside a session", () => {
    expect(harnessConfigDir({ BRIGADE_CONFIG_DIR: "/b", HOME: "/h" }, "/opt")).toBe("/opt");
    expect(harnessConfigDir({ CLAUDE_PID: "7", HOME: "/h" }, "/opt")).toBe("/opt");
  });

  test("a relative or empty plugin option is skipped", () => {
    expect(harnessConfigDir({ HOME: "/h" }, "rel")).toBe("/h/.config/brigade");
    expect(harnessConfigDir({ HOME: "/h" }, "")).toBe("/h/.config/brigade");
  });

  test("outside a session: BRIGADE_CONFIG_DIR, then XDG_CONFIG_HOME, then HOME", () => {
    const env = { BRIGADE_CONFIG_DIR: "/b", XDG_CONFIG_HOME: "/x", HOME: "/h" };
    expect(harnessConfigDir(env)).toBe("/b");
    expect(harnessConfigDir({ ...env, BRIGADE_CONFIG_DIR: "" })).toBe("/x/brigade");
    expect(harnessConfigDir({ HOME: "/h", XDG_CONFIG_HOME: "" })).toBe("/h/.config/brigade");
  });

  test("inside a session (CLAUDE_PID set) an inherited BRIGADE_CONFIG_DIR is ignored", () => {
    const env = { CLAUDE_PID: "4242", BRIGADE_CONFIG_DIR: "/planted", HOME: "/h" };
    expect(harnessConfigDir(env)).toBe("/h/.config/brigade");
    expect(harnessConfigDir({ ...env, CLAUDE_PID: "" })).toBe("/planted");
  });

  test("relative bases are skipped, not refused (unlike the adapter's own rule)", () => {
    expect(harnessConfigDir({ BRIGADE_CONFIG_DIR: "rel", HOME: "/h" })).toBe("/h/.config/brigade");
    expect(harnessConfigDir({ XDG_CONFIG_HOME: "rel", HOME: "/h" })).toBe("/h/.config/brigade");
    expect(harnessConfigDir({ BRIGADE_CONFIG_DIR: "rel", HOME: "rel" })).toBeUndefined();
    expect(harnessConfigDir({})).toBeUndefined();
  });
});
