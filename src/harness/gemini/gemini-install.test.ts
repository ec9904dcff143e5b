import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { GEMINI_POLICY_MARK, shellWord } from "./gemini-extension.ts";
import {
  geminiExtensionDir,
  geminiPolicyPath,
  installGemini,
  uninstallGemini,
} from "./gemini-install.ts";

let home: string;
const command = { node: "/opt/node 20/bin/node", cli: "/w/it's brigade/dist/cli/main.js" };

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "gemini-install-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("brigade install gemini", () => {
  test("writes the extension, its hooks and the policy; a path with a space or a quote stays one shell word", () => {
    const outcome = installGemini({ HOME: home }, command);
    expect(outcome.ok).toBe(true);
    const dir = geminiExtensionDir({ HOME: home }) as string;
    expect(dir).toBe(join(home, ".gemini", "extensions", "brigade"));
    const manifest = JSON.parse(readFileSync(join(dir, "gemini-extension.json"), "utf8"));
    expect(manifest.mcpServers.brigade).toEqual({
      command: command.node,
      args: [command.cli, "mcp"],
    });
    const hooks = JSON.parse(readFileSync(join(dir, "hooks", "hooks.json"), "utf8")).hooks;
    expect(hooks.BeforeAgent[0].hooks[0].command).toBe(
      `'/opt/node 20/bin/node' '/w/it'\\''s brigade/dist/cli/main.js' 'host-hook' 'gemini' 'turn'`,
    );
    expect(statSync(join(dir, "hooks", "hooks.json")).mode & 0o777).toBe(0o644);
    const policy = readFileSync(geminiPolicyPath(dir), "utf8");
    expect(policy.startsWith(`${GEMINI_POLICY_MARK}\n`)).toBe(true);
    expect(policy).toContain('toolName = ["mcp_brigade_inbox", "mcp_brigade_who"]');
    expect(policy).not.toContain("send");
  });

  test("GEMINI_CLI_HOME decides the folder; a relative home writes nothing", () => {
    const other = join(home, "other");
    expect(geminiExtensionDir({ HOME: home, GEMINI_CLI_HOME: other })).toBe(
      join(other, ".gemini", "extensions", "brigade"),
    );
    const refused = installGemini({ HOME: "relative/home" }, command);
    expect(refused.ok === false && refused.code).toBe("no_home");
  });

  test("a folder or a policy Brigade did not write is refused and left as it is", () => {
    const dir = join(home, ".gemini", "extensions", "brigade");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "gemini-extension.json"), "{}");
    const refused = installGemini({ HOME: home }, command);
    expect(refused.ok === false && refused.code).toBe("extension_foreign");
    expect(readFileSync(join(dir, "gemini-extension.json"), "utf8")).toBe("{}");
    expect(uninstallGemini({ HOME: home }).ok).toBe(false);
    rmSync(dir, { recursive: true });
    const policy = geminiPolicyPath(dir);
    mkdirSync(join(home, ".gemini", "policies"), { recursive: true });
    writeFileSync(policy, "# mine\n");
    expect(installGemini({ HOME: home }, command).ok).toBe(false);
    expect(readFileSync(policy, "utf8")).toBe("# mine\n");
  });

  test("install twice is the same files; uninstall removes exactly what install wrote", () => {
    expect(installGemini({ HOME: home }, command).ok).toBe(true);
    const dir = geminiExtensionDir({ HOME: home }) as string;
    const first = readFileSync(join(dir, "hooks", "hooks.json"), "utf8");
    expect(installGemini({ HOME: home }, command).ok).toBe(true);
    expect(readFileSync(join(dir, "hooks", "hooks.json"), "utf8")).toBe(first);
    writeFileSync(join(home, ".gemini", "policies", "mine.toml"), "# mine\n");
    const removed = uninstallGemini({ HOME: home });
    expect(removed.ok).toBe(true);
    expect(() => statSync(dir)).toThrow();
    expect(() => statSync(geminiPolicyPath(dir))).toThrow();
    expect(readFileSync(join(home, ".gemini", "policies", "mine.toml"), "utf8")).toBe("# mine\n");
    const again = uninstallGemini({ HOME: home });
    expect(again.ok && again.lines[0]).toMatch(/not installed/);
  });

  test("shellWord keeps $, backquotes and quotes literal", () => {
    expect(shellWord("a$HOME`x`'b")).toBe(`'a$HOME\`x\`'\\''b'`);
  });
});
