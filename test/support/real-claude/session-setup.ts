/**
 * What every real Claude Code session of a test gets before its process starts: a folder of its
 * own, a config folder with the first-run dialogs answered, a fake Messages API, the environment
 * and the arguments.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Person, PluginWorld } from "../plugin-world.ts";
import { DUMMY_API_KEY, writeClientConfig } from "./client-config.ts";
import { FakeMessagesApi } from "./fake-messages-api.ts";

/** How to start a session, interactive or headless. */
export interface SessionOptions {
  /** The Claude Code executable (see `claudeCodeExecutable`). */
  readonly executable: string;
  /**
   * Plugin option values the user set, by key (`team_inbound: "hold"`). They reach the hooks as
   * `CLAUDE_PLUGIN_OPTION_<KEY>` through Claude Code's own environment, which it hands to its
   * hooks.
   */
  readonly pluginOptions?: Readonly<Record<string, string>>;
  /** `--permission-mode`; default: Claude Code's own default (auto on 2.1.3xx). */
  readonly permissionMode?: "default" | "acceptEdits" | "plan" | "auto" | "bypassPermissions";
  /** Extra members of the user `settings.json` (the `Bash(brigade:*)` allow rule is always there). */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** `CLAUDE_CONFIG_DIR`; default `<home>/.claude-<n>`, a new one per session. */
  readonly configDir?: string;
  /** More environment for Claude Code (and so its hooks and tools). */
  readonly env?: Readonly<Record<string, string>>;
  /** Bound of the start (the plugin's SessionStart done); default 90 s. */
  readonly startTimeoutMs?: number;
  /**
   * Whether the start waits for the plugin's SessionStart to register the session (its by-pid
   * map); default true. False for a session the plugin is expected to leave disconnected.
   */
  readonly registers?: boolean;
}

/** A prepared session: everything but the process. */
export interface SessionSetup {
  /** The session's own folder (tmux socket, Claude Code's `TMPDIR`). */
  readonly dir: string;
  readonly configDir: string;
  readonly api: FakeMessagesApi;
  /** Claude Code's whole environment. */
  readonly env: Readonly<Record<string, string>>;
  /** `--plugin-dir <the installed copy>` and, when asked, `--permission-mode`. */
  readonly args: readonly string[];
}

let sessions = 0;

/** Whether this process runs as root (bypass mode then needs `IS_SANDBOX=1`). */
function runningAsRoot(): boolean {
  return process.getuid?.() === 0;
}

/**
 * Prepares a session of `who` in their checkout: the folders (under the world's root), the config
 * files, a started fake API, the environment (the person's, plus `TMPDIR`, `CLAUDE_CONFIG_DIR`,
 * `ANTHROPIC_BASE_URL`, a dummy `ANTHROPIC_API_KEY`, no non-essential traffic, no auto-update,
 * `IS_SANDBOX=1` as root, the plugin options, `options.env`) and the arguments.
 */
export async function prepareSession(
  world: PluginWorld,
  who: Person,
  options: SessionOptions,
): Promise<SessionSetup> {
  sessions += 1;
  const dir = mkdtempSync(join(world.root, "cc-"));
  const tmp = join(dir, "tmp");
  mkdirSync(tmp, { mode: 0o700 });
  const configDir = options.configDir ?? join(who.home, `.claude-${sessions}`);
  writeClientConfig({
    configDir,
    projectDir: who.checkout,
    apiKey: DUMMY_API_KEY,
    ...(options.settings === undefined ? {} : { settings: options.settings }),
  });
  const api = await FakeMessagesApi.start();
  const pluginEnv = Object.fromEntries(
    Object.entries(options.pluginOptions ?? {}).map(([key, value]) => [
      `CLAUDE_PLUGIN_OPTION_${key.toUpperCase()}`,
      value,
    ]),
  );
  const env: Record<string, string> = {
    ...who.env,
    TMPDIR: tmp,
    CLAUDE_CONFIG_DIR: configDir,
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: DUMMY_API_KEY,
    // No telemetry, no update check, no call to anything but the fake.
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    ...(runningAsRoot() ? { IS_SANDBOX: "1" } : {}),
    ...pluginEnv,
    ...options.env,
  };
  const args = ["--plugin-dir", world.pluginRoot];
  if (options.permissionMode !== undefined) args.push("--permission-mode", options.permissionMode);
  return { dir, configDir, api, env, args };
}

/** Stops the fake and removes the session's folder and config folder. */
export async function discardSession(setup: SessionSetup): Promise<void> {
  await setup.api.close();
  rmSync(setup.dir, { recursive: true, force: true, maxRetries: 5 });
  rmSync(setup.configDir, { recursive: true, force: true, maxRetries: 5 });
}
