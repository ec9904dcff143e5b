import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { CODEX_BLOCK_BEGIN, codexBlock, codexClash, shellWord } from "./codex-block.ts";
import { readCodexChanges } from "./codex-changes.ts";
import { insertCodexBlock, removeCodexBlock } from "./codex-config-edit.ts";
import { codexHomeOf, installCodex, uninstallCodex } from "./codex-install.ts";
import { scanTomlKeys } from "./toml-key-scan.ts";

const COMMAND = { node: "/usr/bin/node", cli: "/w/brigade/dist/cli/main.js" };
const UID = process.getuid?.() ?? -1;
const NOW = new Date("2026-12-04T12:00:00.000Z");

let root: string;
let home: string;
let config: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "brigade-codex-config-"));
  home = join(root, ".codex");
  mkdirSync(home);
  config = join(home, "config.toml");
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const paths = (text: string): string[] => {
  const scan = scanTomlKeys(text);
  if (!scan.ok) throw new Error("not scanned");
  return scan.definitions.map((d) => `${d.kind}:${d.path.join(".")}`);
};

/** A config.toml a person may have: comments, a provider, an MCP server, hooks of their own. */
const PERSON = `# my Codex settings
model = "gpt-5"
notes = """
[mcp_servers.brigade]
not a table: inside a string
"""
list = [
  "a", # a comment
  { x = 1 },
]

[model_providers."local.test"]
base_url = 'http://127.0.0.1:1/v1'

[mcp_servers.docs]
command = "docs-mcp"

[[hooks.SessionStart]]
[[hooks.SessionStart.hooks]]
type = "command"
command = "echo mine"
`;

describe("scanTomlKeys", () => {
  test("names every header and key with its full path, skipping strings, arrays and comments", () => {
    expect(paths(PERSON)).toEqual([
      "key:model",
      "key:notes",
      "key:list",
      "table:model_providers.local.test",
      "key:model_providers.local.test.base_url",
      "table:mcp_servers.docs",
      "key:mcp_servers.docs.command",
      "array_table:hooks.SessionStart",
      "array_table:hooks.SessionStart.hooks",
      "key:hooks.SessionStart.hooks.type",
      "key:hooks.SessionStart.hooks.command",
    ]);
    expect(paths('a."b.c".d = 1 # c\n"\\u00e9" = "\\"x"\n')).toEqual(["key:a.b.c.d", "key:é"]);
  });

  test("refuses what it cannot follow, and never throws", () => {
    for (const bad of ['a = "open', "a = [1, 2", "[table", "just words", 'x = """never']) {
      expect(scanTomlKeys(bad).ok).toBe(false);
    }
  });
});

describe("codexBlock and codexClash", () => {
  test("the block is the MCP server and five hook groups, each path quoted for TOML and the shell", () => {
    const block = codexBlock({ node: "/opt/n o'de", cli: '/w/"q"/main.js' });
    expect(block.startsWith(`${CODEX_BLOCK_BEGIN}\n`)).toBe(true);
    expect(block.endsWith('host-hook codex session-end"\ntimeout = 10\n')).toBe(true);
    expect(block).toContain('command = "/opt/n o\'de"\nargs = ["/w/\\"q\\"/main.js", "mcp"]\n');
    expect(block).toContain('default_tools_approval_mode = "approve"');
    expect(block).toContain("startup_timeout_sec = 30");
    expect(block).toContain("required = true");
    expect(block).toContain(
      `command = ${JSON.stringify(`${shellWord("/opt/n o'de")} ${shellWord('/w/"q"/main.js')} host-hook codex turn`)}`,
    );
    expect(shellWord("o'de")).toBe("'o'\\''de'");
    expect(
      paths(block).filter((p) => p.startsWith("array_table:hooks.") && p.split(".").length === 2),
    ).toEqual([
      "array_table:hooks.SessionStart",
      "array_table:hooks.UserPromptSubmit",
      "array_table:hooks.PostToolUse",
      "array_table:hooks.Stop",
      "array_table:hooks.SessionEnd",
    ]);
  });

  test("clashes with a brigade server, and with tables written inline", () => {
    const clash = (text: string) => {
      const scan = scanTomlKeys(text);
      if (!scan.ok) throw new Error("not scanned");
      return codexClash(scan.definitions);
    };
    expect(clash(PERSON)).toBeUndefined();
    expect(clash('[mcp_servers.brigade]\ncommand = "b"\n')).toBe("server_present");
    expect(clash('[mcp_servers]\nbrigade.command = "b"\n')).toBe("server_present");
    expect(clash('mcp_servers = { docs = { command = "d" } }\n')).toBe("tables_inline");
    expect(clash("hooks = {}\n")).toBe("tables_inline");
    expect(clash("[hooks]\nStop = []\n")).toBe("tables_inline");
    expect(clash("[hooks.UserPromptSubmit]\n")).toBe("tables_inline");
    expect(clash('[hooks.state."x"]\ntrusted_hash = "h"\n[[hooks.PreToolUse]]\n')).toBeUndefined();
  });
});

describe("insertCodexBlock and removeCodexBlock", () => {
  const block = codexBlock(COMMAND);

  test("appends after a blank line, every other byte kept, and takes exactly that out again", () => {
    const original = PERSON.trimEnd(); // no newline at the end
    writeFileSync(config, original, { mode: 0o640 });
    const inserted = insertCodexBlock(home, UID, block);
    expect(inserted).toEqual({ kind: "inserted", file: config, inserted: `\n\n${block}` });
    const text = readFileSync(config, "utf8");
    expect(text).toBe(`${original}\n\n${block}`);
    expect(statSync(config).mode & 0o777).toBe(0o640);

    // Codex appends the trust /hooks records after the block: it stays when the block goes.
    const trust =
      '\n[hooks.state]\n\n[hooks.state."k:session_start:1:0"]\ntrusted_hash = "sha256:0"\n';
    writeFileSync(config, `${text}${trust}`);
    const change = { inserted: `\n\n${block}`, created: false };
    expect(removeCodexBlock(home, UID, change)).toEqual({ kind: "removed" });
    expect(readFileSync(config, "utf8")).toBe(`${original}${trust}`);
    expect(removeCodexBlock(home, UID, change)).toEqual({ kind: "already_absent" });
  });

  test("a file ending in a newline gets one more; a missing file is created 0600 and removed whole", () => {
    writeFileSync(config, 'model = "m"\n');
    expect(insertCodexBlock(home, UID, block)).toMatchObject({ inserted: `\n${block}` });
    rmSync(config);
    expect(insertCodexBlock(home, UID, block)).toEqual({
      kind: "created",
      file: config,
      inserted: block,
    });
    expect(statSync(config).mode & 0o777).toBe(0o600);
    expect(removeCodexBlock(home, UID, { inserted: block, created: true })).toEqual({
      kind: "file_removed",
    });
    expect(() => statSync(config)).toThrow();
  });

  test("refuses, writing nothing, a clash, a symlink, a line it cannot follow, or no folder", () => {
    const refusedWith = (text: string, reason: string) => {
      writeFileSync(config, text);
      expect(insertCodexBlock(home, UID, block)).toEqual({ kind: "refused", reason });
      expect(readFileSync(config, "utf8")).toBe(text);
    };
    refusedWith('[mcp_servers.brigade]\ncommand = "mine"\n', "server_present");
    refusedWith("[hooks]\nSessionStart = []\n", "tables_inline");
    refusedWith('a = "unterminated\n', "not_toml");
    rmSync(config);
    writeFileSync(join(root, "elsewhere.toml"), "");
    symlinkSync(join(root, "elsewhere.toml"), config);
    expect(insertCodexBlock(home, UID, block)).toEqual({ kind: "refused", reason: "symlink" });
    expect(insertCodexBlock(join(root, "none"), UID, block)).toEqual({
      kind: "refused",
      reason: "no_directory",
    });
  });

  test("an edited block is the person's: left as it is", () => {
    writeFileSync(config, "");
    const inserted = insertCodexBlock(home, UID, block);
    if (inserted.kind === "refused") throw new Error(inserted.reason);
    const edited = readFileSync(config, "utf8").replace('"approve"', '"prompt"');
    writeFileSync(config, edited);
    expect(removeCodexBlock(home, UID, { inserted: inserted.inserted, created: false })).toEqual({
      kind: "changed",
    });
    expect(readFileSync(config, "utf8")).toBe(edited);
  });
});

describe("installCodex and uninstallCodex", () => {
  const configDir = () => join(root, "brigade-config");

  test("CODEX_HOME decides, else HOME/.codex; a relative one is refused", () => {
    expect(codexHomeOf({ HOME: "/home/dana" })).toBe("/home/dana/.codex");
    expect(codexHomeOf({ HOME: "/home/dana", CODEX_HOME: "/srv/codex" })).toBe("/srv/codex");
    expect(codexHomeOf({ HOME: "/home/dana", CODEX_HOME: "rel" })).toBeUndefined();
    expect(installCodex({ CODEX_HOME: "rel" }, COMMAND, configDir(), UID, NOW)).toMatchObject({
      ok: false,
      code: "no_home",
    });
  });

  test("install records the text added; again is nothing; a moved checkout updates; uninstall puts the file back", () => {
    writeFileSync(config, PERSON);
    const env = { HOME: root, CODEX_HOME: home };
    const first = installCodex(env, COMMAND, configDir(), UID, NOW);
    expect(first.ok).toBe(true);
    expect(readFileSync(config, "utf8")).toBe(`${PERSON}\n${codexBlock(COMMAND)}`);
    const record = readCodexChanges(configDir(), UID);
    expect(record).toEqual({
      ok: true,
      changes: [
        {
          file: config,
          inserted: `\n${codexBlock(COMMAND)}`,
          created: false,
          at: NOW.toISOString(),
        },
      ],
    });
    expect(statSync(join(configDir(), "codex-config-changes.json")).mode & 0o777).toBe(0o600);

    const again = installCodex(env, COMMAND, configDir(), UID, NOW);
    expect(again).toEqual({
      ok: true,
      lines: [`${config}: Brigade's block is there already: nothing changed.`],
    });
    const moved = { node: COMMAND.node, cli: "/new/brigade/dist/cli/main.js" };
    const update = installCodex(env, moved, configDir(), UID, NOW);
    expect(update.ok && update.lines[0]).toContain("brought up to date");
    expect(readFileSync(config, "utf8")).toBe(`${PERSON}\n${codexBlock(moved)}`);

    const undone = uninstallCodex(configDir(), UID);
    expect(undone).toEqual({
      ok: true,
      lines: [`${config}: took Brigade's block out, every other line as it is.`],
    });
    expect(readFileSync(config, "utf8")).toBe(PERSON);
    expect(readCodexChanges(configDir(), UID)).toEqual({ ok: true, changes: [] });
    expect(uninstallCodex(configDir(), UID)).toMatchObject({ ok: true });
  });

  test("a refused install writes neither the file nor the record", () => {
    const mine = '[mcp_servers.brigade]\ncommand = "mine"\n';
    writeFileSync(config, mine);
    chmodSync(config, 0o600);
    const outcome = installCodex({ CODEX_HOME: home }, COMMAND, configDir(), UID, NOW);
    expect(outcome).toMatchObject({ ok: false, code: "config_refused" });
    expect(outcome.ok === false && outcome.line).toContain("(server_present)");
    expect(readFileSync(config, "utf8")).toBe(mine);
    expect(readCodexChanges(configDir(), UID)).toEqual({ ok: true, changes: [] });
  });
});
