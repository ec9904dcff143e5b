// The Claude Code plugin package (docs/spec/claude-code.md §1.1, §6): the committed bundle is what
// a fresh build makes (the CI check), the entry is an executable node script, the manifests have
// the shapes Claude Code reads, and the copied plugin runs with plain node and no node_modules.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, test } from "vitest";
import { HARNESS_COMMANDS } from "../src/cli/harness-commands.ts";
import { runCli } from "./support/cli-harness.ts";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const pluginRoot = join(repoRoot, "plugin");
const BUNDLE = "plugin/dist/brigade.mjs";
const BIN = "plugin/bin/brigade";
const BUILD_SCRIPT = join(repoRoot, "scripts/build-plugin-bundle.mjs");
const BUILD_TIMEOUT_MS = 60_000;
const RUN_TIMEOUT_MS = 15_000;

const scratch = mkdtempSync(join(tmpdir(), "brigade-plugin-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const readJson = (path: string): Record<string, Json> =>
  JSON.parse(readFileSync(join(repoRoot, path), "utf8")) as Record<string, Json>;
const isObject = (v: Json | undefined): v is { [key: string]: Json } =>
  typeof v === "object" && v !== null && !Array.isArray(v);

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(
  args: string[],
  options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {},
): Run {
  const result = spawnSync(process.execPath, args, {
    cwd: options.cwd ?? repoRoot,
    input: options.input ?? "",
    encoding: "utf8",
    timeout: args[0] === BUILD_SCRIPT ? BUILD_TIMEOUT_MS : RUN_TIMEOUT_MS,
    env: options.env ?? process.env,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function git(args: string[]): string {
  const result = spawnSync("git", args, { cwd: repoRoot, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args[0]} failed`);
  return result.stdout;
}

/** Every file below `dir`, as paths relative to `root` with `/`. */
function filesBelow(dir: string, root: string = dir): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesBelow(path, root));
    else out.push(relative(root, path).split("\\").join("/"));
  }
  return out.sort();
}

/** The `key: value` lines of a SKILL.md's leading `---` block, or undefined when it has none. */
function frontmatter(text: string): Map<string, string> | undefined {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (match === null) return undefined;
  const fields = new Map<string, string>();
  for (const line of (match[1] as string).split("\n")) {
    const pair = /^([a-z][a-z-]*):\s*(.*)$/.exec(line);
    if (pair === null) throw new Error("frontmatter line is not key: value");
    fields.set(pair[1] as string, (pair[2] as string).trim());
  }
  return fields;
}

describe("the committed bundle", () => {
  test("is tracked by git and byte-identical to a fresh build (npm run bundle -- --check)", () => {
    expect(git(["ls-files", BUNDLE]).trim()).toBe(BUNDLE);
    const check = run([BUILD_SCRIPT, "--check"]);
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
  });

  test("the check fails on a bundle that differs by one byte, or is missing", () => {
    const copy = join(scratch, "altered.mjs");
    writeFileSync(copy, `${readFileSync(join(repoRoot, BUNDLE), "utf8")} `);
    const altered = run([BUILD_SCRIPT, "--check", "--out", copy]);
    expect(altered.status).toBe(1);
    expect(altered.stderr).toContain("differs from a fresh build");
    const missing = run([BUILD_SCRIPT, "--check", "--out", join(scratch, "none.mjs")]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("is missing");
  });

  test("the build refuses an entry that reaches the store, the server or node_modules", () => {
    const entry = join(scratch, "bad-entry.ts");
    writeFileSync(
      entry,
      [
        `import * as server from ${JSON.stringify(join(repoRoot, "src/server/serve.ts"))};`,
        "console.log(Object.keys(server).length);",
        "",
      ].join("\n"),
    );
    const refused = run([BUILD_SCRIPT, "--entry", entry, "--out", join(scratch, "bad.mjs")]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("src/server/");
    expect(() => statSync(join(scratch, "bad.mjs"))).toThrow();
  });

  test("is a readable ESM file that imports only node: builtins", () => {
    const text = readFileSync(join(repoRoot, BUNDLE), "utf8");
    expect(text.startsWith("// GENERATED FILE: do not edit.")).toBe(true);
    expect(text).toContain("npm run bundle");
    // Not minified: short lines, indentation, the source's own names.
    const lines = text.split("\n");
    expect(lines.length).toBeGreaterThan(1000);
    const meanLength = text.length / lines.length;
    expect(meanLength).toBeLessThan(80);
    expect(lines.filter((line) => line.length > 1000)).toEqual([]);
    expect(text).toContain("async function dispatchCommand(");
    expect(text).not.toContain("sourceMappingURL");
    const specifiers = [
      ...text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']/gm),
      ...text.matchAll(/^\s*import\s*["']([^"']+)["']/gm),
      ...text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
    ].map((m) => m[1] as string);
    expect(specifiers.length).toBeGreaterThan(0);
    expect(specifiers.filter((s) => !s.startsWith("node:"))).toEqual([]);
    expect(text).not.toMatch(/\brequire\(|createRequire|better-sqlite3|from "hono"/);
  });

  test("holds no code that edits Claude Code's settings: only the person's own CLI does, with their yes", () => {
    const text = readFileSync(join(repoRoot, BUNDLE), "utf8");
    for (const writer of [
      "ensureInboundAcceptSetting",
      "removeInboundAcceptSetting",
      "insertAcceptMember",
      "removeTopLevelMember",
    ]) {
      expect(text).not.toContain(writer);
    }
  });
});

describe("bin/brigade", () => {
  test("is committed with mode 100755 and starts with the node shebang", () => {
    const entry = git(["ls-files", "-s", BIN]).trim();
    expect(entry.split(/\s+/)[0]).toBe("100755");
    expect(entry.endsWith(`\t${BIN}`)).toBe(true);
    expect(readFileSync(join(repoRoot, BIN), "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
    expect(statSync(join(repoRoot, BIN)).mode & 0o111).not.toBe(0);
  });

  test("help exits 0 and lists every harness command", () => {
    const help = run([BIN, "help"]);
    expect(help.stderr).toBe("");
    expect(help.status).toBe(0);
    expect(help.stdout.startsWith("usage: brigade <command>")).toBe(true);
    const listed = help.stdout
      .split("\n")
      .filter((line) => line.startsWith("  "))
      .map((line) => line.trim().split(" ")[0]);
    expect(listed).toEqual(Object.keys(HARNESS_COMMANDS));
    expect(listed).not.toContain("serve");
    expect(listed).not.toContain("conformance");
    // The raw BAP/1 binding would let the model read held bodies unsanitised, ack or leave.
    expect(listed).not.toContain("adapter");
    const adapter = run([BIN, "adapter", "http", "describe"]);
    expect(adapter.status).toBe(2);
    expect(adapter.stdout).toBe("");
  });

  test("a copy of plugin/ outside the repo runs inspect with no node_modules, as a symlink too", async () => {
    const copy = join(scratch, "installed");
    cpSync(pluginRoot, copy, { recursive: true });
    const input = readFileSync(join(repoRoot, "samples/hostile-message.txt"), "utf8");
    const expected = await runCli(["inspect"], input);
    expect(expected.status).toBe(0);
    const env = { PATH: process.env.PATH ?? "", NODE_PATH: "", HOME: scratch };
    const inspected = run([join(copy, "bin/brigade"), "inspect"], { cwd: scratch, input, env });
    expect(inspected.stderr).toBe("");
    expect(inspected.status).toBe(0);
    expect(inspected.stdout).toBe(expected.stdout);
    // Run the file itself (its shebang), through a symlink elsewhere: the bundle is found by realpath.
    const link = join(scratch, "brigade-link");
    spawnSync("ln", ["-s", join(copy, "bin/brigade"), link]);
    const viaLink = spawnSync(link, ["help"], { cwd: scratch, env, encoding: "utf8" });
    expect(viaLink.status).toBe(0);
    expect(viaLink.stdout.startsWith("usage: brigade <command>")).toBe(true);
  });

  test("a copy whose bundle is gone: a hook exits 0 with one stderr line, any other command 1", () => {
    const copy = join(scratch, "no-bundle");
    mkdirSync(join(copy, "bin"), { recursive: true });
    cpSync(join(repoRoot, BIN), join(copy, "bin/brigade"));
    const hook = run([join(copy, "bin/brigade"), "hook", "prompt"], { input: "{}" });
    expect([hook.status, hook.stdout]).toEqual([0, ""]);
    expect(hook.stderr).toBe("brigade: cannot load the plugin bundle (Error)\n");
    const other = run([join(copy, "bin/brigade"), "sessions"]);
    expect(other.status).toBe(1);
    expect(other.stdout).toBe("");
  });

  test("on a node older than 20 it prints one Brigade: line on stdout and exits 0", () => {
    const preload = join(scratch, "pretend-node-18.cjs");
    writeFileSync(
      preload,
      [
        'Object.defineProperty(process, "versions", { value: { ...process.versions, node: "18.20.4" } });',
        'Object.defineProperty(process, "version", { value: "v18.20.4" });',
        "",
      ].join("\n"),
    );
    const old = run(["--require", preload, BIN, "hook", "prompt"]);
    expect(old.status).toBe(0);
    expect(old.stderr).toBe("");
    expect(old.stdout).toMatch(/^Brigade: needs Node\.js 20 or newer on PATH[^\n]*\n$/);
  });
});

describe("plugin layout and manifests (docs/spec/claude-code.md §6)", () => {
  const packageVersion = readJson("package.json").version;

  test("plugin/ holds only the manifest, hooks, skills, the entry and the bundle", () => {
    const files = filesBelow(pluginRoot);
    const allowed =
      /^(\.claude-plugin\/plugin\.json|hooks\/hooks\.json|skills\/[a-z][a-z0-9-]*\/SKILL\.md|bin\/brigade|dist\/brigade\.mjs)$/;
    expect(files.filter((f) => !allowed.test(f))).toEqual([]);
    expect(readdirSync(join(pluginRoot, ".claude-plugin"))).toEqual(["plugin.json"]);
    expect(files).not.toContain(".mcp.json");
    expect(files).not.toContain("package.json");
  });

  test("plugin.json: name, version = package.json, and userConfig per docs/spec/claude-code.md §6.2", () => {
    const manifest = readJson("plugin/.claude-plugin/plugin.json");
    expect(manifest.name).toBe("brigade");
    expect(typeof packageVersion).toBe("string");
    expect(manifest.version).toBe(packageVersion);
    expect(typeof manifest.description).toBe("string");
    expect(isObject(manifest.author) && typeof manifest.author.name === "string").toBe(true);
    const config = manifest.userConfig;
    if (!isObject(config)) throw new Error("userConfig is not an object");
    const defaultType: Record<string, string> = {
      string: "string",
      directory: "string",
      file: "string",
      number: "number",
      boolean: "boolean",
    };
    for (const [key, option] of Object.entries(config)) {
      expect(key).toMatch(/^[A-Za-z_]\w*$/);
      if (!isObject(option)) throw new Error(`option ${key} is not an object`);
      const type = option.type;
      expect(typeof type === "string" && Object.hasOwn(defaultType, type)).toBe(true);
      expect(typeof option.title === "string" && option.title !== "").toBe(true);
      expect(typeof option.description === "string" && option.description !== "").toBe(true);
      expect(typeof option.default).toBe(defaultType[type as string]);
      for (const flag of ["sensitive", "required"]) {
        if (flag in option) expect(typeof option[flag]).toBe("boolean");
      }
    }
    const summary = Object.fromEntries(
      Object.entries(config).map(([k, v]) => [k, isObject(v) ? [v.type, v.default] : undefined]),
    );
    expect(summary).toMatchObject({
      frame: ["string", "open"],
      frame_file: ["file", ""],
      team_inbound: ["string", "accept"],
      poll_on_prompt: ["boolean", false],
      config_dir: ["directory", ""],
      label: ["string", "account"],
      workspace_label: ["string", ""],
      share_workspace_label: ["boolean", true],
    });
  });

  test("hooks.json: exec form of docs/spec/claude-code.md §1.1 with a timeout on every hook", () => {
    const doc = readJson("plugin/hooks/hooks.json");
    expect(typeof doc.description).toBe("string");
    const hooks = doc.hooks;
    if (!isObject(hooks)) throw new Error("hooks is not an object");
    expect(Object.keys(hooks).sort()).toEqual([
      "PostToolUse",
      "SessionEnd",
      "SessionStart",
      "UserPromptSubmit",
    ]);
    const expected: Record<string, [string, number]> = {
      SessionStart: ["session-start", 60],
      UserPromptSubmit: ["prompt", 5],
      PostToolUse: ["post-tool-use", 5],
      SessionEnd: ["session-end", 5],
    };
    for (const [event, [sub, timeout]] of Object.entries(expected)) {
      const groups = hooks[event];
      if (!Array.isArray(groups) || groups.length !== 1 || !isObject(groups[0])) {
        throw new Error(`${event}: expected one matcher group`);
      }
      expect(groups[0].matcher).toBeUndefined();
      const list = groups[0].hooks;
      if (!Array.isArray(list) || list.length !== 1 || !isObject(list[0])) {
        throw new Error(`${event}: expected one hook`);
      }
      const hook = list[0];
      expect(hook.type).toBe("command");
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code substitutes this literal text
      expect(hook.command).toBe("${CLAUDE_PLUGIN_ROOT}/bin/brigade");
      expect(hook.args).toEqual(["hook", sub]);
      expect(hook.timeout).toBe(timeout);
      if (event === "SessionStart") {
        expect(typeof hook.statusMessage === "string" && hook.statusMessage !== "").toBe(true);
      }
    }
  });

  test("skills: frontmatter with a description; team-messaging and sessions as docs/spec/claude-code.md §6.1 says", () => {
    const names = readdirSync(join(pluginRoot, "skills")).sort();
    expect(names).toEqual(["join", "sessions", "setup", "team-messaging", "update"]);
    const skills = new Map<string, { fields: Map<string, string>; body: string }>();
    for (const name of names) {
      const text = readFileSync(join(pluginRoot, "skills", name, "SKILL.md"), "utf8");
      const fields = frontmatter(text);
      if (fields === undefined) throw new Error(`${name}: no frontmatter`);
      expect((fields.get("description") ?? "").length).toBeGreaterThan(20);
      if (fields.has("name")) expect(fields.get("name")).toBe(name);
      skills.set(name, { fields, body: text });
    }
    const messaging = skills.get("team-messaging");
    expect(messaging?.fields.get("allowed-tools")).toBe("Bash(brigade:*)");
    expect(messaging?.fields.has("disable-model-invocation")).toBe(false);
    for (const human of ["sessions", "setup", "join", "update"]) {
      expect(skills.get(human)?.fields.get("disable-model-invocation"), human).toBe("true");
    }
    const body = messaging?.body ?? "";
    expect(body).toContain("brigade sessions");
    expect(body).toContain("brigade send <session-id> <<'EOF'");
    expect(body).toContain("--reply-to");
    expect(body).toContain("--body-file");
    expect(body).toContain("<brigade-message");
    expect(body).toContain("brigade inbox show <message-id>");
    expect(body).toContain("--attach FILE");
    expect(body).toContain("[llmsafespaces:attachment path=");
    // Every heredoc the model is shown to copy is quoted (docs/spec/claude-code.md §2.1: the text
    // stays literal).
    const blocks = [...body.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1] as string);
    expect(blocks.length).toBeGreaterThan(0);
    for (const line of blocks
      .join("")
      .split("\n")
      .filter((l) => l.includes("<<"))) {
      expect(line).toMatch(/^brigade send \S+( --reply-to \S+)?( --attach \S+)* <<'EOF'$/);
    }
    expect(skills.get("join")?.body).toContain('brigade team join --secret-file "$ARGUMENTS"');
    // The model is only ever shown the bare command, never a path to it
    // (docs/spec/claude-code.md §2.1, §7.6).
    for (const [name, { body: text }] of skills) {
      expect(text, name).not.toMatch(/CLAUDE_PLUGIN_ROOT|bin\/brigade|dist\/brigade/);
    }
  });

  test("marketplace.json at the repository root per docs/spec/claude-code.md §6.3, same version, source ./plugin", () => {
    const market = readJson(".claude-plugin/marketplace.json");
    expect(market.name).toBe("brigade");
    expect(isObject(market.owner) && typeof market.owner.name === "string").toBe(true);
    const plugins = market.plugins;
    if (!Array.isArray(plugins) || plugins.length !== 1 || !isObject(plugins[0])) {
      throw new Error("expected one plugin entry");
    }
    expect(plugins[0]).toMatchObject({
      name: "brigade",
      source: "./plugin",
      version: packageVersion,
    });
    expect(typeof plugins[0].description).toBe("string");
  });
});
