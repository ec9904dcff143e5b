import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { installQwen, qwenExtensionDir, qwenHome, uninstallQwen } from "./qwen-install.ts";

let home: string;
const command = { node: "/opt/node 20/bin/node", cli: "/w/it's brigade/dist/cli/main.js" };

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "qwen-install-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("brigade install qwen", () => {
  test("writes the extension: its MCP server and four hooks, each path one shell word, timeouts in seconds", () => {
    expect(installQwen({ HOME: home }, command).ok).toBe(true);
    const dir = qwenExtensionDir({ HOME: home }) as string;
    expect(dir).toBe(join(home, ".qwen", "extensions", "brigade"));
    const manifest = JSON.parse(readFileSync(join(dir, "qwen-extension.json"), "utf8"));
    expect(manifest.name).toBe("brigade");
    expect(manifest.mcpServers.brigade).toEqual({
      command: command.node,
      args: [command.cli, "mcp"],
    });
    const hooks = JSON.parse(readFileSync(join(dir, "hooks", "hooks.json"), "utf8")).hooks;
    expect(Object.keys(hooks).sort()).toEqual([
      "SessionEnd",
      "SessionStart",
      "Stop",
      "UserPromptSubmit",
    ]);
    expect(hooks.UserPromptSubmit[0].hooks[0]).toEqual({
      type: "command",
      name: "brigade-turn",
      command: `'/opt/node 20/bin/node' '/w/it'\\''s brigade/dist/cli/main.js' 'host-hook' 'qwen' 'turn'`,
      timeout: 8,
    });
    expect(statSync(join(dir, "hooks", "hooks.json")).mode & 0o777).toBe(0o644);
  });

  test("QWEN_HOME decides the folder; a relative one or a relative HOME writes nothing", () => {
    expect(qwenHome({ HOME: home, QWEN_HOME: join(home, "q") })).toBe(join(home, "q"));
    expect(qwenHome({ HOME: home, QWEN_HOME: "" })).toBe(join(home, ".qwen"));
    const relative = installQwen({ HOME: home, QWEN_HOME: "q" }, command);
    expect(relative.ok === false && relative.code).toBe("no_home");
    const noHome = installQwen({ HOME: "relative" }, command);
    expect(noHome.ok === false && noHome.code).toBe("no_home");
  });

  test("a folder Brigade did not write is refused and left; uninstall removes only ours", () => {
    const dir = join(home, ".qwen", "extensions", "brigade");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "qwen-extension.json"), "{}");
    const refused = installQwen({ HOME: home }, command);
    expect(refused.ok === false && refused.code).toBe("extension_foreign");
    const left = uninstallQwen({ HOME: home });
    expect(left.ok === false && left.code).toBe("extension_foreign");
    expect(readFileSync(join(dir, "qwen-extension.json"), "utf8")).toBe("{}");
    rmSync(dir, { recursive: true });
    expect(installQwen({ HOME: home }, command).ok).toBe(true);
    expect(installQwen({ HOME: home }, command).ok).toBe(true);
    expect(uninstallQwen({ HOME: home }).ok).toBe(true);
    expect(() => statSync(dir)).toThrow();
    expect(uninstallQwen({ HOME: home })).toEqual({
      ok: true,
      lines: ["Brigade's Qwen Code extension is not installed: nothing to remove."],
    });
  });
});
