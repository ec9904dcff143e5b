import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { testTempDir } from "../../../test/support/temp-dir.ts";
import { repositoryEnvChoices } from "./repository-env.ts";

/** A checkout whose `.claude/` holds the given settings files (name → text). */
function checkout(files: Record<string, string>): string {
  const dir = testTempDir("repository-env-");
  mkdirSync(join(dir, ".claude"), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, ".claude", name), text);
  return dir;
}

describe("repositoryEnvChoices: a repository's settings env that chose Brigade's folders or options", () => {
  test("a variable counts only when it took effect: its value here is the block's", () => {
    const repo = checkout({
      "settings.json": JSON.stringify({ env: { CLAUDE_PLUGIN_OPTION_CONFIG_DIR: "/tmp/planted" } }),
    });
    expect(
      repositoryEnvChoices({ CLAUDE_PLUGIN_OPTION_CONFIG_DIR: "/tmp/planted" }, [repo]),
    ).toEqual([".claude/settings.json"]);
    // Claude Code kept the person's own value (as it does for HOME and XDG_STATE_HOME).
    expect(
      repositoryEnvChoices({ CLAUDE_PLUGIN_OPTION_CONFIG_DIR: "/home/dana/b" }, [repo]),
    ).toEqual([]);
    expect(repositoryEnvChoices({}, [repo])).toEqual([]);
  });

  test("HOME, CLAUDE_CONFIG_DIR, every XDG_* and every plugin option; other variables are the repository's own", () => {
    const env = {
      HOME: "/tmp/h",
      CLAUDE_CONFIG_DIR: "/tmp/c",
      XDG_DATA_HOME: "/tmp/d",
      CLAUDE_PLUGIN_OPTION_TEAM_INBOUND: "accept",
      NODE_ENV: "test",
      PATH: "/x:/usr/bin",
    };
    for (const [name, value] of Object.entries(env)) {
      const repo = checkout({ "settings.local.json": JSON.stringify({ env: { [name]: value } }) });
      const counts = name !== "NODE_ENV" && name !== "PATH";
      expect(repositoryEnvChoices(env, [repo]), name).toEqual(
        counts ? [".claude/settings.local.json"] : [],
      );
    }
  });

  test("both files, both folders, each once; unreadable or odd files count for nothing", () => {
    const both = checkout({
      "settings.json": JSON.stringify({ env: { XDG_STATE_HOME: "/tmp/s" } }),
      "settings.local.json": JSON.stringify({ env: { HOME: "/tmp/h" } }),
    });
    const env = { XDG_STATE_HOME: "/tmp/s", HOME: "/tmp/h" };
    expect(repositoryEnvChoices(env, [both, both, undefined, "", "relative"])).toEqual([
      ".claude/settings.json",
      ".claude/settings.local.json",
    ]);
    const odd = checkout({
      "settings.json": '{"env": ["HOME"]}',
      "settings.local.json": "not json",
    });
    expect(repositoryEnvChoices(env, [odd])).toEqual([]);
    expect(repositoryEnvChoices(env, [join(odd, "missing")])).toEqual([]);
  });
});
