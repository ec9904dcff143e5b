import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { clineChangesPath } from "./cline-changes.ts";
import { CLINE_HOOK_MARKER, clineHooksDir } from "./cline-hooks-folder.ts";
import { clineDirOf, installCline, uninstallCline } from "./cline-install.ts";

let root: string;
let env: Record<string, string>;
let configDir: string;
let settings: string;
let hooks: string;
const uid = process.getuid?.() ?? 0;
const now = new Date("2026-12-05T03:00:00Z");
const command = { node: "/opt/node 20/bin/node", cli: "/w/it's brigade/dist/cli/main.js" };
const EVENTS = [
  "PostToolUse",
  "TaskCancel",
  "TaskComplete",
  "TaskResume",
  "TaskStart",
  "UserPromptSubmit",
];
/** The person's own settings, indented by four and ending in a newline (Cline writes two, none). */
const ORIGINAL = `${JSON.stringify({ mcpServers: { notes: { command: "/bin/true" } } }, null, 4)}\n`;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "cline-install-"));
  // xdg-user-dir as the person's desktop has it: it names their documents folder.
  const bin = join(root, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "xdg-user-dir"), `#!/bin/sh\necho "$HOME/Documents"\n`);
  chmodSync(join(bin, "xdg-user-dir"), 0o755);
  env = {
    HOME: join(root, "home"),
    PATH: `${bin}:/usr/bin:/bin`,
    XDG_STATE_HOME: join(root, "state"),
  };
  mkdirSync(env.HOME as string);
  configDir = join(root, "config", "brigade");
  settings = join(env.HOME as string, ".cline", "data", "settings", "cline_mcp_settings.json");
  hooks = join(env.HOME as string, "Documents", "Cline", "Hooks");
  mkdirSync(join(settings, ".."), { recursive: true });
  writeFileSync(settings, ORIGINAL);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const servers = (): Record<string, unknown> =>
  JSON.parse(readFileSync(settings, "utf8")).mcpServers as Record<string, unknown>;

describe("brigade install cline", () => {
  test("writes six marked hook files, each path one shell word, and adds the brigade server beside the person's", () => {
    const outcome = installCline(env, command, configDir, uid, now);
    expect(outcome.ok).toBe(true);
    expect(clineHooksDir(env)).toBe(hooks);
    for (const name of EVENTS) {
      const path = join(hooks, name);
      expect(statSync(path).mode & 0o777).toBe(0o755);
      const lines = readFileSync(path, "utf8").split("\n");
      expect(lines[0]).toBe("#!/bin/sh");
      expect(lines[1]).toBe(CLINE_HOOK_MARKER);
    }
    expect(readFileSync(join(hooks, "PostToolUse"), "utf8").split("\n")[2]).toBe(
      `exec '/opt/node 20/bin/node' '/w/it'\\''s brigade/dist/cli/main.js' 'host-hook' 'cline' 'post-tool'`,
    );
    expect(readFileSync(join(hooks, "TaskResume"), "utf8")).toContain("'session-start'");
    expect(readFileSync(join(hooks, "TaskCancel"), "utf8")).toContain("'session-end'");
    expect(servers()).toEqual({
      notes: { command: "/bin/true" },
      brigade: {
        command: command.node,
        args: [command.cli, "mcp"],
        type: "stdio",
        env: { XDG_STATE_HOME: env.XDG_STATE_HOME },
        autoApprove: ["inbox", "who"],
        disabled: false,
      },
    });
    expect(statSync(clineChangesPath(configDir)).mode & 0o777).toBe(0o600);
  });

  test("uninstall removes the hooks and puts the settings' bytes back; run twice, install changes nothing more", () => {
    expect(installCline(env, command, configDir, uid, now).ok).toBe(true);
    const first = readFileSync(settings, "utf8");
    expect(installCline(env, command, configDir, uid, now).ok).toBe(true);
    expect(readFileSync(settings, "utf8")).toBe(first);
    const undone = uninstallCline(env, configDir, uid);
    expect(undone.ok).toBe(true);
    expect(readFileSync(settings, "utf8")).toBe(ORIGINAL);
    for (const name of EVENTS) expect(existsSync(join(hooks, name))).toBe(false);
    const again = uninstallCline(env, configDir, uid);
    expect(again.ok).toBe(true);
    expect(readFileSync(settings, "utf8")).toBe(ORIGINAL);
  });

  test("a settings file Brigade created is removed again", () => {
    rmSync(settings);
    expect(installCline(env, command, configDir, uid, now).ok).toBe(true);
    expect(Object.keys(servers())).toEqual(["brigade"]);
    expect(uninstallCline(env, configDir, uid).ok).toBe(true);
    expect(existsSync(settings)).toBe(false);
  });

  test("settings Cline changed since: only Brigade's entry is taken out", () => {
    expect(installCline(env, command, configDir, uid, now).ok).toBe(true);
    const changed = JSON.parse(readFileSync(settings, "utf8"));
    changed.mcpServers.notes.disabled = true;
    writeFileSync(settings, JSON.stringify(changed, null, 2));
    expect(uninstallCline(env, configDir, uid).ok).toBe(true);
    expect(servers()).toEqual({ notes: { command: "/bin/true", disabled: true } });
  });

  test("Brigade's entry edited since: left as it is, still recorded, block_changed", () => {
    expect(installCline(env, command, configDir, uid, now).ok).toBe(true);
    const changed = JSON.parse(readFileSync(settings, "utf8"));
    changed.mcpServers.brigade.autoApprove = ["inbox", "who", "send"];
    const text = JSON.stringify(changed, null, 2);
    writeFileSync(settings, text);
    const undone = uninstallCline(env, configDir, uid);
    expect(undone.ok === false && undone.code).toBe("block_changed");
    expect(readFileSync(settings, "utf8")).toBe(text);
    expect(readFileSync(clineChangesPath(configDir), "utf8")).toContain(settings);
    for (const name of EVENTS) expect(existsSync(join(hooks, name))).toBe(false);
  });

  test("a hook file Brigade did not write refuses everything and is left", () => {
    mkdirSync(hooks, { recursive: true });
    writeFileSync(join(hooks, "TaskStart"), "#!/bin/sh\necho mine\n");
    const refused = installCline(env, command, configDir, uid, now);
    expect(refused.ok === false && refused.code).toBe("extension_foreign");
    expect(readFileSync(join(hooks, "TaskStart"), "utf8")).toBe("#!/bin/sh\necho mine\n");
    expect(existsSync(join(hooks, "PostToolUse"))).toBe(false);
    expect(readFileSync(settings, "utf8")).toBe(ORIGINAL);
    expect(uninstallCline(env, configDir, uid).ok).toBe(true);
    expect(readFileSync(join(hooks, "TaskStart"), "utf8")).toBe("#!/bin/sh\necho mine\n");
  });

  test("a server named brigade of the person's, or settings that are not a JSON object, are refused untouched", () => {
    const theirs = JSON.stringify({ mcpServers: { brigade: { command: "/bin/false" } } });
    writeFileSync(settings, theirs);
    const present = installCline(env, command, configDir, uid, now);
    expect(present.ok === false && present.code).toBe("config_refused");
    expect(present.ok === false && present.line).toContain("server_present");
    expect(readFileSync(settings, "utf8")).toBe(theirs);
    writeFileSync(settings, "[1, 2]");
    const notJson = installCline(env, command, configDir, uid, now);
    expect(notJson.ok === false && notJson.line).toContain("not_json");
    expect(readFileSync(settings, "utf8")).toBe("[1, 2]");
  });

  test("CLINE_DIR decides Cline's folder; a relative one or HOME writes nothing; no xdg-user-dir means ~/Documents", () => {
    expect(clineDirOf({ HOME: "/h", CLINE_DIR: "/c" })).toBe("/c");
    expect(clineDirOf({ HOME: "/h" })).toBe("/h/.cline");
    const relative = installCline({ ...env, CLINE_DIR: "c" }, command, configDir, uid, now);
    expect(relative.ok === false && relative.code).toBe("no_home");
    expect(readFileSync(settings, "utf8")).toBe(ORIGINAL);
    const empty = join(root, "empty");
    mkdirSync(empty);
    expect(clineHooksDir({ HOME: "/h", PATH: empty })).toBe("/h/Documents/Cline/Hooks");
  });
});
