import { describe, expect, test } from "vitest";
import { pluginBooleanOption, pluginOption, pluginOptionVariable } from "./index.ts";

describe("plugin options as Claude Code exports them", () => {
  test("the variable is the key upper-cased behind CLAUDE_PLUGIN_OPTION_; unset reads empty", () => {
    expect(pluginOptionVariable("share_workspace_label")).toBe(
      "CLAUDE_PLUGIN_OPTION_SHARE_WORKSPACE_LABEL",
    );
    expect(pluginOption({ CLAUDE_PLUGIN_OPTION_FRAME: " strict " }, "frame")).toBe(" strict ");
    expect(pluginOption({}, "frame")).toBe("");
  });

  const flag = (value: string | undefined, fallback: boolean): boolean =>
    pluginBooleanOption({ CLAUDE_PLUGIN_OPTION_FLAG: value }, "flag", fallback);

  test("every accepted spelling, in any case and with spaces around, over either default", () => {
    for (const fallback of [true, false]) {
      for (const yes of ["true", "1", "yes", "on", "TRUE", "Yes", " on", "1\n", "\ttrue "]) {
        expect(flag(yes, fallback)).toBe(true);
      }
      for (const no of ["false", "0", "no", "off", "FALSE", "No", " off", "0\n", "\tfalse "]) {
        expect(flag(no, fallback)).toBe(false);
      }
    }
  });

  test("anything else, unset and empty included, is the option's default", () => {
    for (const other of [undefined, "", " ", "maybe", "y", "n", "enabled", "t r u e", "2", "-1"]) {
      expect(flag(other, true)).toBe(true);
      expect(flag(other, false)).toBe(false);
    }
  });
});
