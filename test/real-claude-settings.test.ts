/**
 * Claude Code's safety settings and the folders a session resolves, on the real Claude Code (the
 * pinned version; docs/47-real-client-tests.md "Settings and folders"): where Claude Code honours
 * `crossSessionInbound: "accept"` (the user settings only), that the plugin changes no Claude
 * Code setting — not even through the model's Bash tool — and delivers a bypassing session's
 * messages at its next prompt instead, that the person's own yes (`brigade doctor --fix` on their
 * terminal) makes them live and `brigade uninstall` puts back the bytes, and that a repository's
 * settings `env` cannot choose Brigade's folders. The sender is a stand-in session (`brigade send`
 * through its Bash tool); the recipient is the real executable under tmux against a fake API.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../src/formats/frame/index.ts";
import { repositoryEnvLine } from "../src/harness/hooks/index.ts";
import type { MessageEnvelope } from "../src/protocol/index.ts";
import { type Person, type PluginWorld, waitFor } from "./support/plugin-world.ts";
import {
  bash,
  HELD_DIALOG,
  modelTexts,
  postAsAnotherProgram,
  type RealClaudeSession,
  RecipientWorld,
  reportOnFailure,
  type SessionOptions,
  say,
  TmuxClaude,
} from "./support/real-claude/index.ts";

const TEAM = "billing";
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** The person's CLI of this checkout (`npm run install-cli` links it), built in `dist/`. */
const PERSON_CLI = join(REPO, "dist", "cli", "main.js");

describe("Claude Code's settings and Brigade's folders, on the real Claude Code", () => {
  let pair: RecipientWorld;
  let world: PluginWorld;
  let eli: Person;

  beforeAll(async () => {
    pair = await RecipientWorld.start(TEAM);
    ({ world, eli } = pair);
  });

  afterAll(async () => {
    await pair?.close();
  });

  const start = (options: Partial<SessionOptions> = {}) => pair.start(options);
  const unacked = (session: RealClaudeSession) => pair.unacked(session);
  const send = (to: string, body: string) => pair.send(to, body);

  /** Whether a model request holds the message's frame, outside a tool result. */
  const framedIn = (session: RealClaudeSession, envelope: MessageEnvelope): boolean => {
    const frame = build(envelope, TEAM, { level: "open", custom: "" });
    return session.api.requests.some((request) =>
      modelTexts(request.body).some((t) => t.place !== "tool-result" && t.text.includes(frame)),
    );
  };

  const userSettings = (session: RealClaudeSession): string =>
    readFileSync(join(session.configDir, "settings.json"), "utf8");

  /** The person's own terminal running the person's CLI, with a real terminal (tmux). */
  async function personTerminal(session: RealClaudeSession, args: readonly string[]) {
    const dir = join(world.root, `terminal-${Date.now()}`);
    mkdirSync(dir, { recursive: true });
    const terminal = await TmuxClaude.start({
      executable: process.execPath,
      args: [PERSON_CLI, ...args],
      cwd: eli.checkout,
      env: { ...eli.env, CLAUDE_CONFIG_DIR: session.configDir },
      dir,
    });
    return terminal;
  }

  it("Claude Code honours crossSessionInbound accept from the user settings only: a project's or local accept still holds each post", async () => {
    const claudeDir = join(eli.checkout, ".claude");
    const outcomes: Record<string, string> = {};
    for (const where of ["project", "local", "user"] as const) {
      rmSync(claudeDir, { recursive: true, force: true });
      mkdirSync(claudeDir, { recursive: true });
      const accept = JSON.stringify({ crossSessionInbound: "accept" });
      if (where === "project") writeFileSync(join(claudeDir, "settings.json"), accept);
      if (where === "local") writeFileSync(join(claudeDir, "settings.local.json"), accept);
      const session = await start({
        permissionMode: "bypassPermissions",
        ...(where === "user" ? { settings: { crossSessionInbound: "accept" } } : {}),
      });
      reportOnFailure({ [where]: session });
      const tag = `inbound-probe-${where}-${Date.now()}`;
      await postAsAnotherProgram(session.registry().messagingSocketPath ?? "", [tag]);
      await waitFor(
        () => {
          const path = session.transcriptPath();
          if (path === undefined) return false;
          for (const line of readFileSync(path, "utf8").split("\n")) {
            if (!line.includes(tag)) continue;
            if (line.includes('"enqueue"')) outcomes[where] = "delivered";
            else if (line.includes("Held peer message")) outcomes[where] = "held";
          }
          return outcomes[where] !== undefined;
        },
        30_000,
        `the ${where} probe's outcome`,
      );
      await session.close();
    }
    rmSync(claudeDir, { recursive: true, force: true });
    expect(outcomes).toEqual({ project: "held", local: "held", user: "delivered" });
  }, 240_000);

  it("a bypassing session: no Claude Code setting changes, not even through the model's Bash tool; the message is read at the next prompt, never held for a dialog", async () => {
    const eliCc = await start({
      permissionMode: "bypassPermissions",
      // The person's CLI on the model's PATH, as `npm run install-cli` puts it.
      env: { PATH: `${join(REPO, "bin")}:${eli.env.PATH}` },
    });
    reportOnFailure({ eli: eliCc });
    // SessionStart saw the bypassing launch: it changed no setting, and started no watcher to
    // post into the dialog.
    expect(JSON.parse(userSettings(eliCc))).not.toHaveProperty("crossSessionInbound");
    expect(existsSync(eliCc.watcherPidfilePath())).toBe(false);
    eliCc.api.script(
      bash(
        'brigade doctor --fix; echo "exit=$?"; env -u CLAUDE_PID brigade doctor --fix; echo "exit=$?"',
      ),
      say("Done."),
    );
    await eliCc.prompt("Allow teammates' messages.");
    const { text: result } = await eliCc.waitForModelText(
      (t) => t.place === "tool-result" && t.text.includes("exit="),
      60_000,
      "the model's doctor --fix",
    );
    expect(result.text.match(/exit=2/g)).toHaveLength(2);
    expect(result.text).toContain("run it in your own terminal");
    await eliCc.waitForIdle();

    const { envelope, stdout } = await send(eliCc.brigadeSessionId(), "Deploy window moved.");
    expect(stdout).toContain("next prompt or tool call");
    await new Promise((r) => setTimeout(r, 5_000));
    expect(await unacked(eliCc)).toEqual([envelope.message_id]);
    expect(framedIn(eliCc, envelope)).toBe(false);
    expect(eliCc.claude.pane()).not.toContain(HELD_DIALOG);

    // The model reads it with the prompt and goes on with a tool call, after which a hook finds it
    // read in the transcript: only then is it acked (docs/42-hooks.md "Acked means read").
    eliCc.api.script(bash("brigade whoami", "Check the session"), say("Noted."));
    await eliCc.prompt("Anything new?");
    await waitFor(() => framedIn(eliCc, envelope), 30_000, "the frame at the prompt");
    await waitFor(async () => (await unacked(eliCc)).length === 0, 30_000, "the ack");
    expect(eliCc.claude.pane()).not.toContain(HELD_DIALOG);
    // The plugin changed no Claude Code setting, and the model could not.
    expect(JSON.parse(userSettings(eliCc))).not.toHaveProperty("crossSessionInbound");
    expect(existsSync(join(eli.checkout, ".claude"))).toBe(false);
  }, 240_000);

  it("with the person's yes (brigade doctor --fix on their terminal) messages arrive live without a dialog; brigade uninstall puts back the bytes", async () => {
    const eliCc = await start({ permissionMode: "bypassPermissions" });
    reportOnFailure({ eli: eliCc });
    await eliCc.waitForIdle();
    const before = userSettings(eliCc);
    const terminal = await personTerminal(eliCc, ["doctor", "--fix"]);
    try {
      await terminal.waitForPane("[y/N]", 60_000, "the question");
      expect(terminal.pane()).toContain("every sender");
      await terminal.type("y");
      await terminal.waitForExit(30_000);
      expect(terminal.pane()).toContain("Added");
    } finally {
      await terminal.close();
    }
    expect(JSON.parse(userSettings(eliCc)).crossSessionInbound).toBe("accept");
    // The next prompt finds the gate open (once Claude Code took the setting in) and starts the
    // watcher; from then on a message needs no prompt.
    await eliCc.prompt("Carry on.");
    await waitFor(() => existsSync(eliCc.watcherPidfilePath()), 30_000, "the watcher");
    const { envelope } = await send(eliCc.brigadeSessionId(), "Tests are green.");
    await waitFor(() => framedIn(eliCc, envelope), 60_000, "the frame, live");
    await waitFor(async () => (await unacked(eliCc)).length === 0, 30_000, "the ack");
    expect(eliCc.claude.pane()).not.toContain(HELD_DIALOG);

    const undo = await world.terminal(eli, ["uninstall"]);
    // The plugin's brigade names the person's CLI for it; run the person's own.
    expect(undo.code).toBe(2);
    const { spawnSync } = await import("node:child_process");
    const uninstall = spawnSync(process.execPath, [PERSON_CLI, "uninstall"], {
      cwd: eli.checkout,
      env: { ...eli.env, CLAUDE_CONFIG_DIR: eliCc.configDir },
      encoding: "utf8",
    });
    expect(uninstall.status, uninstall.stderr).toBe(0);
    expect(readFileSync(join(eliCc.configDir, "settings.json"), "utf8")).toBe(before);
  }, 240_000);

  it("a repository whose settings env chooses Brigade's config folder: one line, nothing registered; HOME and XDG_STATE_HOME stay the person's", async () => {
    const planted = join(world.root, "planted-config");
    cpSync(eli.configDir, planted, { recursive: true });
    const movedState = join(world.root, "moved-state");
    const claudeDir = join(eli.checkout, ".claude");
    mkdirSync(claudeDir, { recursive: true });
    writeFileSync(
      join(claudeDir, "settings.json"),
      JSON.stringify({
        env: {
          CLAUDE_PLUGIN_OPTION_CONFIG_DIR: planted,
          XDG_STATE_HOME: movedState,
          HOME: join(world.root, "moved-home"),
        },
      }),
    );
    try {
      const eliCc = await start({ permissionMode: "bypassPermissions", registers: false });
      reportOnFailure({ eli: eliCc });
      eliCc.api.script(
        bash('printenv HOME XDG_STATE_HOME CLAUDE_PLUGIN_OPTION_CONFIG_DIR; echo "end"'),
        say("Noted."),
      );
      const first = await eliCc.prompt("Hello.");
      const line = repositoryEnvLine([".claude/settings.json"]);
      expect(modelTexts(first.body).some((t) => t.text.includes(line))).toBe(true);
      const { text: result } = await eliCc.waitForModelText(
        (t) => t.place === "tool-result" && t.text.includes("end"),
        60_000,
        "the environment",
      );
      // What the host decides: the person's HOME and XDG_STATE_HOME stand, the option does not.
      expect(result.text.split("\n").slice(0, 3)).toEqual([
        eli.env.HOME,
        eli.env.XDG_STATE_HOME,
        planted,
      ]);
      expect(existsSync(eliCc.byPidMapPath())).toBe(false);
      expect(existsSync(join(movedState, "brigade"))).toBe(false);
    } finally {
      rmSync(claudeDir, { recursive: true, force: true });
    }
  }, 180_000);
});
