import { currentUid } from "../../local-files/index.ts";
import { harnessConfigDir } from "../adapter/index.ts";
import type { ClientInstallOutcome, HostClient } from "../host-session/index.ts";
import { CLINE_COMMAND_ENV, CLINE_DOTENV_FILES, CLINE_PROCESS_SIGNATURE } from "./cline-facts.ts";
import { CLINE_BRIGADE_EVENTS, runClineHook } from "./cline-hook.ts";
import { installCline, uninstallCline } from "./cline-install.ts";

/**
 * The Cline CLI (docs/49-cline.md): its measured facts, its hooks (files in Cline's global hooks
 * folder), and Brigade's server in its MCP settings, added and given back byte for byte. A
 * pull-lane client: the hooks bind the task and give the per-turn notice, the `inbox` tool of
 * `brigade mcp` delivers, and an MCP call binds through the Cline process's by-pid map.
 */
export * from "./cline-changes.ts";
export * as CLINE_FACTS from "./cline-facts.ts";
export * from "./cline-hook.ts";
export * from "./cline-hook-input.ts";
export * from "./cline-hooks-folder.ts";
export * from "./cline-install.ts";
export * from "./cline-settings-edit.ts";
export * from "./cline-version.ts";

const NO_CONFIG_DIR: ClientInstallOutcome = {
  ok: false,
  code: "no_config_dir",
  line: "Brigade's configuration folder cannot be found (check HOME): nothing changed",
};

/**
 * Whether `env` is that of a command a Cline model runs: Cline sets no variable of its own there,
 * but puts every pager of `CLINE_COMMAND_ENV` to `cat` and `SYSTEMD_PAGER` to empty (2.18.0).
 *
 * @example insideClineCommand({ PAGER: "cat", GIT_PAGER: "cat", MANPAGER: "cat", SYSTEMD_PAGER: "" }) === true
 */
export function insideClineCommand(env: Readonly<Record<string, string | undefined>>): boolean {
  return Object.entries(CLINE_COMMAND_ENV).every(([name, value]) => env[name] === value);
}

/** Cline as a {@link HostClient}: `brigade install cline`, `brigade host-hook cline …`. */
export const CLINE_CLIENT: HostClient = {
  name: "cline",
  title: "Cline CLI",
  hookEvents: CLINE_BRIGADE_EVENTS,
  runHook: (event, stdin, deps) =>
    runClineHook(event as (typeof CLINE_BRIGADE_EVENTS)[number], stdin, deps),
  install: (env, command) => {
    const configDir = harnessConfigDir(env);
    if (configDir === undefined) return NO_CONFIG_DIR;
    return installCline(env, command, configDir, currentUid(), new Date());
  },
  uninstall: (env) => {
    const configDir = harnessConfigDir(env);
    if (configDir === undefined) return NO_CONFIG_DIR;
    return uninstallCline(env, configDir, currentUid());
  },
  dotenvFiles: CLINE_DOTENV_FILES,
  insideSession: insideClineCommand,
  processSignature: CLINE_PROCESS_SIGNATURE,
};
