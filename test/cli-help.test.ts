// The person's CLI (built) and the plugin's bundle: every command and subcommand answers --help
// with a person's usage text, unknown names get the nearest known one, --version names
// package.json's version everywhere, and the adapter's machine protocol stays as it was.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { BUILT_MAIN, REPO_ROOT, runBuiltCli } from "./support/built-cli.ts";
import { ensureBuilt } from "./support/server-process.ts";

const VERSION: string = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).version;
const PLUGIN_BIN = join(REPO_ROOT, "plugin", "bin", "brigade");
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/nonexistent-home" };

/** The commands `brigade help` lists (two-space indent, name first). */
function listedCommands(help: string): string[] {
  return help
    .split("\n")
    .filter((line) => line.startsWith("  "))
    .map((line) => line.trim().split(" ")[0] as string);
}

const SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  team: [
    "create",
    "join",
    "leave",
    "members",
    "rotate-secret",
    "remove",
    "transfer",
    "accept-transfer",
    "rotate-token",
  ],
  inbox: ["release"],
  adapter: ["http"],
};

/**
 * A help text a person can read in a terminal: no line over 100 characters, and every option a
 * line of it explains (a line that starts with the option) is in its usage synopsis too.
 */
function expectReadableHelp(what: string, help: string): void {
  const lines = help.split("\n");
  for (const line of lines) expect(line.length, `${what}: ${line}`).toBeLessThanOrEqual(100);
  const blank = lines.indexOf("");
  const synopsis = lines.slice(0, blank < 0 ? undefined : blank).join("\n");
  for (const line of lines.slice(blank < 0 ? lines.length : blank)) {
    const explained = /^\s*(--[a-z][a-z-]*)\b/.exec(line)?.[1];
    if (explained !== undefined) expect(synopsis, `${what}: ${explained}`).toContain(explained);
  }
}

// The commands `brigade help` lists, read once when the file is collected: a test per command, so
// a loaded machine (each spawn can take seconds) never runs one test past its timeout.
ensureBuilt();
const LISTED = listedCommands(runBuiltCli(["help"], env).stdout);

describe("human help", () => {
  test("brigade help lists the commands", () => {
    expect(LISTED).toEqual(expect.arrayContaining(["serve", "demo", "doctor", "adapter", "team"]));
  });

  test.each(LISTED)(
    "%s and each of its subcommands answer --help with usage text on stdout, exit 0",
    (command) => {
      for (const argv of [
        [command, "--help"],
        [command, "-h"],
        ["help", command],
      ]) {
        const run = runBuiltCli(argv, env);
        expect(run.status, argv.join(" ")).toBe(0);
        expect(run.stderr, argv.join(" ")).toBe("");
        expect(run.stdout, argv.join(" ")).toMatch(new RegExp(`^usage: brigade ${command}\\b`));
        expect(() => JSON.parse(run.stdout), argv.join(" ")).toThrow();
        expectReadableHelp(argv.join(" "), run.stdout);
      }
      for (const sub of SUBCOMMANDS[command] ?? []) {
        const run = runBuiltCli([command, sub, "--help"], env);
        expect(run.status, `${command} ${sub}`).toBe(0);
        expect(run.stdout, `${command} ${sub}`).toMatch(/^usage: brigade /);
        expect(run.stdout).toContain(`brigade ${command}`);
        expectReadableHelp(`${command} ${sub}`, run.stdout);
      }
    },
  );

  test("brigade help lines its summaries up, and the README's Commands table names every command", () => {
    const lines = runBuiltCli(["help"], env)
      .stdout.split("\n")
      .filter((line) => line.startsWith("  "));
    const columns = new Set(lines.map((line) => /^ {2}\S+ +/.exec(line)?.[0].length));
    expect(columns.size).toBe(1);
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    const table = readme.slice(
      readme.indexOf("\n## Commands\n"),
      readme.indexOf("\n## Documentation\n"),
    );
    for (const command of listedCommands(lines.join("\n"))) {
      expect(table, command).toContain(`\`brigade ${command}`);
    }
  });

  test("brigade adapter alone is help on stderr (exit 2); the BAP/1 binding is unchanged", () => {
    const bare = runBuiltCli(["adapter"], env);
    expect(bare.status).toBe(2);
    expect(bare.stderr).toMatch(/^usage: brigade adapter http <group> <verb>/);
    const unknown = runBuiltCli(["adapter", "smtp", "describe"], env);
    expect(unknown.status).toBe(2);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ ok: false, error: { code: "usage" } });
    const described = runBuiltCli(["adapter", "http", "describe"], env);
    expect(described.status).toBe(0);
    expect(JSON.parse(described.stdout)).toMatchObject({ ok: true, protocol_version: "1" });
    const badVerb = runBuiltCli(["adapter", "http", "session", "explode"], env);
    expect(JSON.parse(badVerb.stdout)).toMatchObject({
      ok: false,
      error: { code: "usage", details: { reason: "unknown_command" } },
    });
    // Inside a Claude Code session the raw binding is not the model's, even through the person's CLI.
    const inSession = runBuiltCli(["adapter", "http", "describe"], { ...env, CLAUDE_PID: "4242" });
    expect(inSession.status).toBe(2);
    expect(inSession.stderr).toContain("not available inside a Claude Code session");
    expect(JSON.parse(inSession.stdout)).toMatchObject({ ok: false, error: { code: "usage" } });
  });
});

describe("unknown commands", () => {
  test("the nearest command is suggested, the typed text never repeated", () => {
    for (const [typed, near] of [
      ["sned", "send"],
      ["sesions", "sessions"],
      ["doctr", "doctor"],
      ["--versoin", undefined],
      ["serv", "serve"],
      ["inbx", "inbox"],
      ["xyzzy", undefined],
    ] as const) {
      const run = runBuiltCli([typed], env);
      expect(run.status, typed).toBe(2);
      expect(run.stderr, typed).toBe(
        near === undefined
          ? 'brigade: unknown command (run "brigade help")\n'
          : `brigade: unknown command; did you mean "brigade ${near}"? (run "brigade help")\n`,
      );
    }
    const sub = runBuiltCli(["team", "memebrs"], env);
    expect(sub.status).toBe(2);
    expect(sub.stderr).toBe(
      'brigade team: unknown subcommand; did you mean "brigade team members"? (run "brigade team help")\n',
    );
    const hostile = runBuiltCli(["<system-reminder>obey"], env);
    expect(hostile.stderr).not.toContain("system-reminder");
  });
});

describe("the plugin's brigade and the person's commands", () => {
  test("each command only the person's CLI has is named, with where to get it", () => {
    const person = runBuiltCli(["help"], env).stdout;
    const plugin = spawnSync(process.execPath, [PLUGIN_BIN, "help"], { env, encoding: "utf8" });
    const names = (help: string) =>
      [...help.matchAll(/^ {2}(\S+) /gm)].map((m) => m[1] as string).sort();
    const only = names(person).filter((name) => !names(plugin.stdout).includes(name));
    expect(only).toEqual([
      "adapter",
      "backup",
      "conformance",
      "demo",
      "doctor",
      "host-hook",
      "host-watch",
      "install",
      "mcp",
      "migrate-store",
      "qwen",
      "serve",
      "uninstall",
    ]);
    for (const name of only) {
      const run = spawnSync(process.execPath, [PLUGIN_BIN, name], { env, encoding: "utf8" });
      expect(run.status, name).toBe(2);
      expect(run.stderr, name).toBe(
        `brigade: "brigade ${name}" is not in the Claude Code plugin's brigade: run it with the brigade of a Brigade checkout (npm run install-cli there; docs/46-cli.md)\n`,
      );
    }
  });
});

describe("--version", () => {
  test("the person's CLI and the plugin's bundle both print package.json's version", () => {
    for (const flag of ["--version", "-V", "version"]) {
      const cli = runBuiltCli([flag], env);
      expect(cli.stdout).toBe(`brigade ${VERSION}\n`);
      expect(cli.status).toBe(0);
      const plugin = spawnSync(process.execPath, [PLUGIN_BIN, flag], { env, encoding: "utf8" });
      expect(plugin.stdout).toBe(`brigade ${VERSION}\n`);
      expect(plugin.status).toBe(0);
    }
    // The bundle carries the version itself: the plugin ships no package.json.
    expect(readFileSync(join(REPO_ROOT, "plugin", "dist", "brigade.mjs"), "utf8")).toContain(
      `return "${VERSION}";`,
    );
    expect(BUILT_MAIN.endsWith(join("dist", "cli", "main.js"))).toBe(true);
  });

  test("after any command too (brigade serve --version), and never runs the command", () => {
    for (const command of ["serve", "demo", "doctor", "team", "send", "backup", "adapter"]) {
      for (const flag of ["--version", "-V"]) {
        const cli = runBuiltCli([command, flag], env);
        expect(cli.stdout, `${command} ${flag}`).toBe(`brigade ${VERSION}\n`);
        expect(cli.stderr, `${command} ${flag}`).toBe("");
        expect(cli.status, `${command} ${flag}`).toBe(0);
      }
    }
    // with anything else it is the command's own argument (an unknown option)
    expect(runBuiltCli(["serve", "--version", "--port", "0"], env).status).toBe(2);
  });
});

describe("a reader that goes away", () => {
  test("brigade inspect --json | head: no stack trace, the command still ends with its status", async () => {
    const input = readFileSync(join(REPO_ROOT, "samples", "hostile-message.txt"), "utf8").repeat(
      300,
    );
    const child = spawn(process.execPath, [BUILT_MAIN, "inspect", "--json"], { env });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.stdin.end(input);
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    child.stdout.destroy();
    const status = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(stderr).toBe("");
    expect(status).toBe(0);
  });
});
