import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { parseOpenCodeHookInput } from "./opencode-hook.ts";
import { installOpenCode, openCodePluginPath, uninstallOpenCode } from "./opencode-install.ts";
import { isBrigadePlugin } from "./opencode-plugin.ts";

let dir: string;

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const COMMAND = { node: process.execPath, cli: '/opt/it\'s "brigade"/main.js' };

describe("brigade install opencode", () => {
  test("one plugin file with Brigade's marker in OpenCode's global plugins folder; uninstall removes only it", () => {
    dir = mkdtempSync(join(tmpdir(), "oc-install-"));
    const env = { HOME: join(dir, "home") };
    const path = join(dir, "home", ".config", "opencode", "plugins", "brigade.js");
    expect(openCodePluginPath(env)).toBe(path);
    expect(openCodePluginPath({ HOME: "/h", XDG_CONFIG_HOME: "/x" })).toBe(
      "/x/opencode/plugins/brigade.js",
    );
    const installed = installOpenCode(env, COMMAND);
    expect(installed.ok).toBe(true);
    const text = readFileSync(path, "utf8");
    expect(isBrigadePlugin(text)).toBe(true);
    // The paths are JSON string literals: a quote stays data.
    expect(text).toContain(`const CLI = ${JSON.stringify(COMMAND.cli)};`);
    expect(installOpenCode(env, COMMAND).ok).toBe(true);
    writeFileSync(join(dir, "home", ".config", "opencode", "plugins", "mine.js"), "export {}\n");
    const removed = uninstallOpenCode(env);
    expect(removed.ok).toBe(true);
    expect(() => readFileSync(path)).toThrow();
    expect(
      readFileSync(join(dir, "home", ".config", "opencode", "plugins", "mine.js"), "utf8"),
    ).toBe("export {}\n");
    expect(uninstallOpenCode(env)).toEqual({
      ok: true,
      lines: ["Brigade's OpenCode plugin is not installed: nothing to remove."],
    });
  });

  test("a file at the plugin's place that Brigade did not write is refused and kept", () => {
    dir = mkdtempSync(join(tmpdir(), "oc-install-"));
    const env = { HOME: join(dir, "home") };
    const path = openCodePluginPath(env) ?? "";
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, "// my own brigade.js\nexport {}\n");
    for (const outcome of [installOpenCode(env, COMMAND), uninstallOpenCode(env)]) {
      expect(outcome).toMatchObject({ ok: false, code: "extension_foreign" });
    }
    expect(readFileSync(path, "utf8")).toBe("// my own brigade.js\nexport {}\n");
    expect(installOpenCode({ HOME: "relative" }, COMMAND)).toMatchObject({ code: "no_home" });
  });
});

describe("the plugin, run as OpenCode runs it", () => {
  /** Installs the plugin with `cli` a script that records each hook and answers `answer`. */
  async function loadPlugin(answer: Record<string, string>) {
    dir = mkdtempSync(join(tmpdir(), "oc-plugin-"));
    const record = join(dir, "hooks.jsonl");
    const cli = join(dir, "fake-cli.mjs");
    writeFileSync(
      cli,
      `import { appendFileSync } from "node:fs";
let input = "";
process.stdin.on("data", (c) => (input += c)).on("end", () => {
  const [, , event] = process.argv.slice(2);
  appendFileSync(${JSON.stringify(record)}, JSON.stringify({ argv: process.argv.slice(2), input: JSON.parse(input) }) + "\\n");
  process.stdout.write(JSON.stringify(${JSON.stringify(answer)}[event] === undefined ? {} : { context: ${JSON.stringify(answer)}[event] }));
});
`,
    );
    const env = { HOME: join(dir, "home") };
    expect(installOpenCode(env, { node: process.execPath, cli }).ok).toBe(true);
    const module = (await import(pathToFileURL(openCodePluginPath(env) ?? "").href)) as {
      BrigadePlugin: (input: unknown) => Promise<Record<string, (...a: never[]) => Promise<void>>>;
    };
    const sessions: Record<string, { parentID?: string; version: string }> = {
      ses_main: { version: "1.18.33" },
      ses_child: { parentID: "ses_main", version: "1.18.33" },
    };
    const hooks = await module.BrigadePlugin({
      client: {
        session: {
          get: async ({ path }: { path: { id: string } }) => ({ data: sessions[path.id] }),
        },
      },
      directory: "/w/api",
      serverUrl: new URL("http://127.0.0.1:4520/"),
    });
    const calls = () =>
      readFileSync(record, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { argv: string[]; input: unknown });
    return { hooks, calls, cli };
  }

  test("config adds the brigade MCP server unless the person named one", async () => {
    const { hooks, cli } = await loadPlugin({});
    const config: { mcp?: Record<string, unknown> } = {};
    await (hooks.config as (c: unknown) => Promise<void>)(config);
    expect(config.mcp).toEqual({
      brigade: { type: "local", command: [process.execPath, cli, "mcp"], enabled: true },
    });
    const theirs = { mcp: { brigade: { type: "remote", url: "http://x" } } };
    await (hooks.config as (c: unknown) => Promise<void>)(theirs);
    expect(theirs.mcp.brigade).toEqual({ type: "remote", url: "http://x" });
  });

  test("a session its start did not bind (no team, no server) runs no more hooks", async () => {
    const { hooks, calls } = await loadPlugin({ turn: "x" });
    const chat = hooks["chat.message"] as (i: unknown, o: unknown) => Promise<void>;
    await chat({ sessionID: "ses_main" }, { parts: [] });
    await chat({ sessionID: "ses_main" }, { parts: [] });
    const out = { system: [] as string[] };
    await (
      hooks["experimental.chat.system.transform"] as (i: unknown, o: unknown) => Promise<void>
    )({ sessionID: "ses_main" }, out);
    expect(out.system).toEqual([]);
    expect(calls().map((c) => c.argv.join(" "))).toEqual(["host-hook opencode session-start"]);
  });

  test("a session's first message binds it, each message is a turn, the context and notice go into its system prompt; a subagent's session is left alone", async () => {
    const { hooks, calls } = await loadPlugin({
      "session-start": "Brigade: this session is …",
      turn: "Brigade: 1 message … waiting",
    });
    const chat = hooks["chat.message"] as (i: unknown, o: unknown) => Promise<void>;
    const system = hooks["experimental.chat.system.transform"] as (
      i: unknown,
      o: unknown,
    ) => Promise<void>;
    const event = hooks.event as (e: unknown) => Promise<void>;
    await chat({ sessionID: "ses_main" }, { parts: [] });
    await chat({ sessionID: "ses_child" }, { parts: [] });
    const out = { system: ["You are opencode"] };
    await system({ sessionID: "ses_main" }, out);
    expect(out.system).toEqual([
      "You are opencode",
      "Brigade: this session is …",
      "Brigade: 1 message … waiting",
    ]);
    const childOut = { system: ["x"] };
    await system({ sessionID: "ses_child" }, childOut);
    expect(childOut.system).toEqual(["x"]);
    await event({ event: { type: "session.idle", properties: { sessionID: "ses_main" } } });
    await event({ event: { type: "session.deleted", properties: { info: { id: "ses_main" } } } });
    const seen = calls();
    expect(seen.map((c) => c.argv.join(" "))).toEqual([
      "host-hook opencode session-start",
      "host-hook opencode turn",
      "host-hook opencode turn-end",
      "host-hook opencode session-end",
    ]);
    const input = parseOpenCodeHookInput(JSON.stringify(seen[0]?.input));
    expect(input).toEqual({
      sessionId: "ses_main",
      cwd: "/w/api",
      serverUrl: "http://127.0.0.1:4520/",
      version: "1.18.33",
    });
  });
});
