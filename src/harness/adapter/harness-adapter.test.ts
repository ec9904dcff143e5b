import { describe, expect, test } from "vitest";
import { harnessConfigDir, harnessConfigLocation } from "./index.ts";

describe("harnessConfigDir", () => {
  test("an absolute plugin option wins, even over BRIGADE_CONFIG_DIR outside a session", () => {
    expect(harnessConfigDir({ BRIGADE_CONFIG_DIR: "/b", HOME: "/h" }, { option: "/opt" })).toBe(
      "/opt",
    );
    expect(harnessConfigDir({ CLAUDE_PID: "7", HOME: "/h" }, { option: "/opt" })).toBe("/opt");
  });

  test("a relative or empty plugin option is skipped", () => {
    expect(harnessConfigDir({ HOME: "/h" }, { option: "rel" })).toBe("/h/.config/brigade");
    expect(harnessConfigDir({ HOME: "/h" }, { option: "" })).toBe("/h/.config/brigade");
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

describe("harnessConfigLocation", () => {
  test("names the source; asSession reads as a session would without CLAUDE_PID", () => {
    const env = { BRIGADE_CONFIG_DIR: "/b", XDG_CONFIG_HOME: "/x", HOME: "/h" };
    expect(harnessConfigLocation(env)).toEqual({ ok: true, dir: "/b", source: "variable" });
    expect(harnessConfigLocation(env, { asSession: true })).toEqual({
      ok: true,
      dir: "/x/brigade",
      source: "xdg",
    });
  });

  test("relative: refuse reports a relative BRIGADE_CONFIG_DIR outside a session only", () => {
    const env = { BRIGADE_CONFIG_DIR: "rel", HOME: "/h" };
    expect(harnessConfigLocation(env, { relative: "refuse" })).toEqual({
      ok: false,
      reason: "variable_relative",
    });
    expect(harnessConfigLocation({ ...env, CLAUDE_PID: "7" }, { relative: "refuse" })).toEqual({
      ok: true,
      dir: "/h/.config/brigade",
      source: "home",
    });
    expect(harnessConfigLocation({ HOME: "rel" })).toEqual({ ok: false, reason: "no_base" });
  });
});
