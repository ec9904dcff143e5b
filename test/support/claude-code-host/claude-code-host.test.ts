import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { wrap } from "../../../src/formats/frame/index.ts";
import { postToInbox } from "../../../src/harness/claude-code/index.ts";
import { InjectionPacer } from "../../../src/harness/pacing/index.ts";
import { REPO_ROOT } from "../server-process.ts";
import { ClaudeCodeHost } from "./index.ts";

const hosts: ClaudeCodeHost[] = [];
async function start(options: Parameters<typeof ClaudeCodeHost.start>[0] = {}) {
  const host = await ClaudeCodeHost.start(options);
  hosts.push(host);
  return host;
}
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

/** Writes raw bytes to the host's socket, optionally keeping the connection open. */
function send(host: ClaudeCodeHost, bytes: string, end = true): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ path: host.socketPath }, () => {
      if (end) socket.end(bytes, () => resolve());
      else socket.write(bytes, () => resolve());
    });
    socket.on("error", reject);
  });
}

const userLine = (content: string, extra: Record<string, unknown> = {}): string =>
  `${JSON.stringify({ type: "user", message: { role: "user", content }, ...extra })}\n`;

describe("the session it stands in for", () => {
  test("private socket, token, live CLAUDE_PID and the registry file of docs/spec/claude-code.md §5", async () => {
    const host = await start({ name: "api", entrypoint: "sdk-cli" });
    expect(lstatSync(host.socketPath).isSocket()).toBe(true);
    expect(lstatSync(host.socketPath).mode & 0o7777).toBe(0o600);
    expect(lstatSync(join(host.socketPath, "..")).mode & 0o7777).toBe(0o700);
    expect(host.token).toMatch(/^[0-9a-f]{32}$/);
    expect(() => process.kill(host.claudePid, 0)).not.toThrow();
    expect(host.claudePid).not.toBe(process.pid);
    expect(host.env).toMatchObject({
      CLAUDE_PID: String(host.claudePid),
      CLAUDE_CODE_MESSAGING_SOCKET: host.socketPath,
      CLAUDE_CODE_MESSAGING_TOKEN: host.token,
    });
    expect(host.registryPath).toBe(join(host.configDir, "sessions", `${host.claudePid}.json`));
    const entry = JSON.parse(readFileSync(host.registryPath, "utf8"));
    expect(entry).toMatchObject({
      name: "api",
      nameSource: "user",
      status: "idle",
      messagingSocketPath: host.socketPath,
      entrypoint: "sdk-cli",
      kind: "interactive",
      version: "2.1.328",
      pid: host.claudePid,
    });
  });

  test("status flips are written to the registry file", async () => {
    const host = await start();
    const status = () => JSON.parse(readFileSync(host.registryPath, "utf8")).status;
    expect(status()).toBe("idle");
    host.beginTurn();
    expect(status()).toBe("busy");
    host.endTurn();
    expect(status()).toBe("idle");
  });

  test("close kills CLAUDE_PID and removes the socket", async () => {
    const host = await ClaudeCodeHost.start();
    await host.close();
    expect(() => process.kill(host.claudePid, 0)).toThrow();
    expect(existsSync(host.socketPath)).toBe(false);
  });
});

describe("the inbox socket's wire rules", () => {
  test("auth is optional but recorded: none, wrong and right token all deliver", async () => {
    const host = await start({ autoTurn: false });
    await send(host, userLine("no auth"));
    await host.waitForPosts(1);
    await send(host, `{"type":"auth","token":"wrong"}\n${userLine("wrong auth")}`);
    await host.waitForPosts(2);
    await send(host, `{"type":"auth","token":"${host.token}"}\n${userLine("right auth")}`);
    await host.waitForPosts(3);
    expect(host.posts.map((p) => [p.authToken, p.authOk, p.outcome])).toEqual([
      [undefined, false, "delivered"],
      ["wrong", false, "delivered"],
      [host.token, true, "delivered"],
    ]);
    expect(host.socketReads()).toEqual(["no auth", "wrong auth", "right auth"]);
  });

  test("one message per connection: a second user line is ignored", async () => {
    const host = await start({ autoTurn: false });
    await send(host, userLine("first") + userLine("second"));
    await host.waitForPosts(1);
    expect(host.socketReads()).toEqual(["first"]);
  });

  test("not a user frame, empty content, another session's id, bad JSON: nothing read", async () => {
    const host = await start({ autoTurn: false });
    await send(host, '{"type":"control","message":{"content":"x"}}\n');
    await send(host, userLine(""));
    await send(host, userLine("elsewhere", { session_id: "not-ours" }));
    await send(host, "{not json\n");
    await send(host, userLine("ours", { session_id: host.sessionId }));
    await host.waitForPosts(5);
    expect(host.posts.map((p) => p.outcome).sort()).toEqual(
      ["delivered", "empty_content", "foreign_session", "malformed", "not_user"].sort(),
    );
    expect(host.socketReads()).toEqual(["ours"]);
  });

  test("a connection with no complete line within the timeout is dropped", async () => {
    const host = await start({ lineTimeoutMs: 150 });
    await send(host, userLine("no newline yet").trimEnd(), false);
    await host.waitForPosts(1, 3_000);
    expect(host.posts[0]?.outcome).toBe("line_timeout");
    expect(host.socketReads()).toEqual([]);
  });

  test("a line over 1,048,576 characters is dropped; exactly 1,048,576 is not", async () => {
    const host = await start({ autoTurn: false });
    const overhead = userLine("").length - 1;
    const fits = "x".repeat(1_048_576 - overhead);
    expect(userLine(fits).length - 1).toBe(1_048_576);
    await send(host, userLine(fits));
    await host.waitForPosts(1);
    await send(host, userLine(`${fits}y`)).catch(() => {});
    await host.waitForPosts(2);
    expect(host.posts.map((p) => p.outcome)).toEqual(["delivered", "line_too_long"]);
  });

  test("a wrapped cross-session frame is recorded verbatim", async () => {
    const host = await start();
    const content = wrap("<brigade-message>\nhi\n</brigade-message>", 'x"<y>');
    expect(await postToInbox({ socketPath: host.socketPath, token: host.token, content })).toEqual({
      ok: true,
    });
    await host.waitForPosts(1);
    expect(host.reads).toEqual([{ source: "socket", text: content, sender: "peer" }]);
  });
});

describe("receiver rules over the real socket, with the poster", () => {
  const frames = (n: number, tag: string) =>
    Array.from({ length: n }, (_, i) =>
      wrap(`<brigade-message message-id="${tag}-${i}">\nbody ${i}\n</brigade-message>`, "peer"),
    );

  test("positive control: a burst of 40 without pacing loses posts (bucket, repeats)", async () => {
    const now = 0;
    const host = await start({ now: () => now });
    const items = frames(40, "burst");
    items.splice(5, 0, "Brigade: same notice", "Brigade: same notice");
    for (const [i, content] of items.entries()) {
      expect(
        await postToInbox({ socketPath: host.socketPath, token: host.token, content }),
      ).toEqual({
        ok: true,
      });
      await host.waitForPosts(i + 1);
    }
    host.settle();
    const outcomes = host.posts.map((p) => p.outcome);
    expect(outcomes.filter((o) => o === "duplicate")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "rate_limited")).toHaveLength(42 - 1 - 30);
    expect(host.socketReads()).toHaveLength(30);
    expect(host.posts.every((p) => p.authOk)).toBe(true);
  });

  test("positive control: 60 posts into one busy turn lose 10 to the 50-post queue", async () => {
    let now = 0;
    const host = await start({ now: () => now, status: "busy" });
    for (const [i, content] of frames(60, "busy").entries()) {
      now += 2_000;
      await postToInbox({ socketPath: host.socketPath, token: host.token, content });
      await host.waitForPosts(i + 1);
    }
    expect(host.posts.filter((p) => p.outcome === "queue_full")).toHaveLength(10);
    host.settle();
    expect(host.socketReads()).toHaveLength(50);
  });

  test("the same burst through the pacer, reading the registry file: nothing lost, in order", async () => {
    let now = 0;
    const host = await start({ now: () => now });
    const items = frames(40, "paced");
    items.splice(5, 0, "Brigade: same notice", "Brigade: same notice");
    const pacer = new InjectionPacer({ now });
    const registryStatus = () => JSON.parse(readFileSync(host.registryPath, "utf8")).status;
    let posted = 0;
    while (posted < items.length && now < 3_600_000) {
      pacer.observeActivity(now, registryStatus());
      const content = items[posted] as string;
      if (pacer.nextPostAt(now, content) <= now) {
        const result = await postToInbox({
          socketPath: host.socketPath,
          token: host.token,
          content,
        });
        expect(result).toEqual({ ok: true });
        pacer.record(now, content);
        posted += 1;
        await host.waitForPosts(posted);
        continue;
      }
      now += 500;
      if (now % 15_000 === 0) host.endTurn(); // turns of 15 s
    }
    host.settle();
    expect(host.posts.filter((p) => p.outcome !== "delivered" && p.outcome !== "queued")).toEqual(
      [],
    );
    expect(host.socketReads()).toEqual(items);
  });
});

describe("hooks and the Bash tool", () => {
  let plugin: string;
  let dump: string;

  beforeAll(() => {
    plugin = join(tmpdir(), `cc-plugin-${process.pid}`);
    dump = join(plugin, "dump");
    mkdirSync(join(plugin, "hooks"), { recursive: true });
    mkdirSync(join(plugin, "bin"), { recursive: true });
    mkdirSync(dump, { recursive: true });
    // The hook records its stdin and environment in a file and prints one context line.
    writeFileSync(
      join(plugin, "hook.mjs"),
      [
        'import { readFileSync, writeFileSync } from "node:fs";',
        "const [event, mode] = process.argv.slice(2);",
        'const stdin = readFileSync(0, "utf8");',
        `writeFileSync(${JSON.stringify(dump)} + "/" + event + ".json", JSON.stringify({ argv: process.argv.slice(2), stdin: JSON.parse(stdin), env: process.env }));`,
        'if (mode === "sleep") setTimeout(() => {}, 10_000);',
        'else if (mode === "fail") { console.log("Brigade: failed"); process.exit(1); }',
        'else if (mode === "json") console.log("{\\"a\\": 1}");',
        'else console.log("  Brigade: " + event + " ran  \\n");',
      ].join("\n"),
    );
    writeFileSync(join(plugin, "bin", "brigade"), '#!/bin/sh\necho "plugin brigade: $*"\n', {
      mode: 0o755,
    });
    const hook = (args: string[], timeout: number) => ({
      hooks: [
        {
          type: "command",
          command: process.execPath,
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the text Claude Code substitutes
          args: ["${CLAUDE_PLUGIN_ROOT}/hook.mjs", ...args],
          timeout,
        },
      ],
    });
    writeFileSync(
      join(plugin, "hooks", "hooks.json"),
      JSON.stringify({
        hooks: {
          SessionStart: [hook(["start"], 60)],
          UserPromptSubmit: [
            hook(["prompt"], 5),
            hook(["prompt-fail", "fail"], 5),
            hook(["prompt-json", "json"], 5),
            hook(["prompt"], 5),
          ],
          SessionEnd: [hook(["end", "sleep"], 60)],
        },
      }),
    );
  });
  afterAll(() => rmSync(plugin, { recursive: true, force: true }));

  const dumped = (name: string) => JSON.parse(readFileSync(join(dump, `${name}.json`), "utf8"));

  test("SessionStart: exec form, stdin without permission_mode, hook environment, stdout read", async () => {
    const host = await start({ pluginRoot: plugin, pluginOptions: { label: "none" } });
    const [run] = await host.runHook("SessionStart");
    expect(run?.exitCode).toBe(0);
    const seen = dumped("start");
    expect(seen.argv).toEqual(["start"]);
    expect(run?.argv).toEqual([process.execPath, `${plugin}/hook.mjs`, "start"]);
    expect(seen.stdin).toMatchObject({
      session_id: host.sessionId,
      transcript_path: host.transcriptPath,
      cwd: host.cwd,
      hook_event_name: "SessionStart",
      source: "startup",
    });
    expect(seen.stdin).not.toHaveProperty("permission_mode");
    expect(seen.env).toMatchObject({
      CLAUDE_PID: String(host.claudePid),
      CLAUDE_CODE_SESSION_ID: host.sessionId,
      CLAUDE_CODE_MESSAGING_SOCKET: host.socketPath,
      CLAUDE_CODE_MESSAGING_TOKEN: host.token,
      CLAUDE_CODE_ENTRYPOINT: "cli",
      CLAUDE_PLUGIN_ROOT: plugin,
      CLAUDE_PLUGIN_DATA: host.pluginDataDir,
      CLAUDE_PROJECT_DIR: host.cwd,
      CLAUDE_PLUGIN_OPTION_LABEL: "none",
    });
    expect(seen.env.PATH.split(":")).not.toContain(join(plugin, "bin"));
    expect(host.reads).toEqual([
      {
        source: "hook",
        hookEvent: "SessionStart",
        text: "Brigade: start ran",
        rendered: "SessionStart:startup hook success: Brigade: start ran",
      },
    ]);
  });

  test("hook stdout reaches the model as a system message, or inside a <system-reminder> where asked", async () => {
    const host = await start({ pluginRoot: plugin, hookContextForm: "system-reminder" });
    await host.runHook("SessionStart", { source: "resume" });
    await host.runHook("UserPromptSubmit");
    expect(host.reads.map((read) => read.rendered)).toEqual([
      "<system-reminder>\nSessionStart:resume hook success: Brigade: start ran\n</system-reminder>",
      "<system-reminder>\nUserPromptSubmit hook success: Brigade: prompt ran\n</system-reminder>",
    ]);
    const plain = await start({ pluginRoot: plugin });
    await plain.runHook("UserPromptSubmit");
    expect(plain.reads.map((read) => read.rendered)).toEqual([
      "UserPromptSubmit hook success: Brigade: prompt ran",
    ]);
  });

  test("the plugin's skills reach the model listed with < and > escaped, and only those the model may invoke", async () => {
    const host = await start({ pluginRoot: join(REPO_ROOT, "plugin") });
    const listing = host.skillListing();
    expect(listing).toHaveLength(1);
    expect(listing[0]).toMatch(/^- brigade:team-messaging: Send messages /);
    expect(listing[0]).toContain("Use when a &lt;brigade-message&gt; arrives");
    expect(listing[0]).not.toContain("<");
  });

  test("UserPromptSubmit: permission_mode, no source; failing or `{` stdout not read; duplicates run once", async () => {
    const host = await start({ pluginRoot: plugin, permissionMode: "bypassPermissions" });
    const runs = await host.runHook("UserPromptSubmit");
    expect(runs.map((r) => r.exitCode)).toEqual([0, 1, 0]);
    expect(runs[2]?.stdout).toBe('{"a": 1}\n');
    const seen = dumped("prompt");
    expect(seen.stdin).toMatchObject({
      hook_event_name: "UserPromptSubmit",
      permission_mode: "bypassPermissions",
    });
    expect(seen.stdin).not.toHaveProperty("source");
    expect(host.reads.map((r) => r.text)).toEqual(["Brigade: prompt ran"]);
  });

  test("SessionEnd: no messaging variables, reason given, killed at the shared budget", async () => {
    // The hook sleeps 10 s under a declared 60 s timeout: only the 300 ms budget can kill it.
    // What it was given is read from the run, not from its dump: on a loaded machine the
    // budget may end before Node has even started the hook.
    const host = await start({ pluginRoot: plugin, sessionEndBudgetMs: 300 });
    const [run] = await host.runHook("SessionEnd", { reason: "clear" });
    expect(run?.timedOut).toBe(true);
    expect(run?.stdin).toMatchObject({ hook_event_name: "SessionEnd", reason: "clear" });
    expect(run?.env).not.toHaveProperty("CLAUDE_CODE_MESSAGING_SOCKET");
    expect(run?.env).not.toHaveProperty("CLAUDE_CODE_MESSAGING_TOKEN");
    expect(run?.env).toHaveProperty("CLAUDE_PID", String(host.claudePid));
    expect(host.reads).toEqual([]);
  });

  test("Bash tool: plugin bin appended last to PATH, session variables and the entrypoint, no CLAUDE_PLUGIN_*", async () => {
    const host = await start({ pluginRoot: plugin, baseEnv: { PATH: "/usr/bin:/bin" } });
    const run = await host.runBash('brigade send --to x; echo "$PATH"; env | grep ^CLAUDE_ | sort');
    expect(run.exitCode).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines[0]).toBe("plugin brigade: send --to x");
    expect(lines[1]).toBe(`/usr/bin:/bin:${plugin}/bin`);
    expect(lines.slice(2)).toEqual(
      [
        "CLAUDE_CODE_ENTRYPOINT=cli",
        `CLAUDE_CODE_MESSAGING_SOCKET=${host.socketPath}`,
        `CLAUDE_CODE_MESSAGING_TOKEN=${host.token}`,
        `CLAUDE_CODE_SESSION_ID=${host.sessionId}`,
        `CLAUDE_CONFIG_DIR=${host.configDir}`,
        `CLAUDE_PID=${host.claudePid}`,
      ].sort(),
    );
  });

  test("Bash tool: an earlier brigade on PATH shadows the plugin's", async () => {
    const earlier = join(plugin, "earlier");
    mkdirSync(earlier, { recursive: true });
    writeFileSync(join(earlier, "brigade"), '#!/bin/sh\necho "earlier brigade"\n', { mode: 0o755 });
    const host = await start({ pluginRoot: plugin, baseEnv: { PATH: `${earlier}:/usr/bin:/bin` } });
    expect((await host.runBash("brigade")).stdout).toBe("earlier brigade\n");
  });

  test("Bash tool: a plugin path with a shell metacharacter is not put on PATH", async () => {
    const odd = join(tmpdir(), `cc plugin ${process.pid}`);
    mkdirSync(join(odd, "bin"), { recursive: true });
    try {
      const host = await start({ pluginRoot: odd, baseEnv: { PATH: "/usr/bin:/bin" } });
      expect(host.bashEnv().PATH).toBe("/usr/bin:/bin");
    } finally {
      rmSync(odd, { recursive: true, force: true });
    }
  });
});
