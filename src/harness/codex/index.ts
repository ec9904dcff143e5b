import { currentUid } from "../../local-files/index.ts";
import { harnessConfigDir } from "../adapter/index.ts";
import type { ClientInstallOutcome, HostClient, HostHookSpec } from "../host-session/index.ts";
import { runHostHook } from "../host-session/index.ts";
import { CODEX_PROCESS_SIGNATURE, CODEX_SESSION_VARIABLES } from "./codex-facts.ts";
import { CODEX_BRIGADE_EVENTS, CODEX_HOOK_SPEC, type CodexBrigadeEvent } from "./codex-hook.ts";
import { installCodex, uninstallCodex } from "./codex-install.ts";
import { openCodexLaneDoor, startCodexLane } from "./codex-lane.ts";

export {
  CODEX_APP_SERVER_TIMEOUT_MS,
  CODEX_CALL_FAILURES,
  CodexAppServer,
  type CodexCallFailure,
  type CodexCallResult,
  type CodexNotification,
  type CodexOpenResult,
} from "./codex-app-server.ts";
/**
 * Codex CLI (docs/49-codex.md): its measured facts, its hooks, the block `brigade install codex`
 * adds to its `config.toml` and takes out again. A pull-lane client: the hooks bind the thread and
 * give the per-turn notice, the `inbox` tool of `brigade mcp` delivers, and every MCP call names
 * its thread in `_meta.threadId`.
 */
export {
  CODEX_BLOCK_BEGIN,
  CODEX_HOOKS,
  CODEX_SERVER_NAME,
  codexBlock,
  codexClash,
  shellWord,
} from "./codex-block.ts";
export {
  type CodexConfigChange,
  codexChangesPath,
  readCodexChanges,
  writeCodexChanges,
} from "./codex-changes.ts";
export {
  CODEX_CONFIG_REFUSALS,
  type CodexBlockInsert,
  type CodexBlockUndo,
  type CodexConfigRefusal,
  insertCodexBlock,
  MAX_CODEX_CONFIG_BYTES,
  removeCodexBlock,
} from "./codex-config-edit.ts";
export {
  CODEX_CLIENT_MESSAGE_PREFIX,
  CODEX_RECORD_TURNS_MAX,
  CODEX_UNRECORDED_GIVE_BACK_MS,
  type CodexAttachResult,
  CodexDoor,
  type CodexThreadPort,
  codexClientId,
} from "./codex-delivery.ts";
export {
  CODEX_NO_DOOR_REASONS,
  type CodexDoorAddress,
  type CodexNoDoorReason,
  codexDoorAddress,
  codexListenAddress,
} from "./codex-door-address.ts";
export * as CODEX_FACTS from "./codex-facts.ts";
export {
  CODEX_BRIGADE_EVENTS,
  CODEX_HOOK_SPEC,
  CODEX_HOST,
  type CodexBrigadeEvent,
} from "./codex-hook.ts";
export { codexHomeOf, installCodex, uninstallCodex } from "./codex-install.ts";
export { CODEX_LANE_ENVIRONMENT, openCodexLaneDoor, startCodexLane } from "./codex-lane.ts";
export {
  CODEX_DOOR_CLIENT_NAME,
  CODEX_DOOR_OPEN_FAILURES,
  type CodexOpenDoorResult,
  type CodexSessionDoorResult,
  openCodexDoor,
  openCodexSessionDoor,
} from "./codex-open-door.ts";
export { codexVersionOf } from "./codex-version.ts";
export { scanTomlKeys, type TomlDefinition, type TomlKeyScan } from "./toml-key-scan.ts";

const NO_CONFIG_DIR: ClientInstallOutcome = {
  ok: false,
  code: "no_config_dir",
  line: "Brigade's configuration folder cannot be found (check HOME): nothing changed",
};

/** Codex's hook flow with its push lane: a session whose process has a door gets one. */
const CODEX_LANE_HOOK_SPEC: HostHookSpec = {
  ...CODEX_HOOK_SPEC,
  startPushLane: (map, env) => startCodexLane(map, env),
};

/**
 * Codex as a {@link HostClient}: `brigade install codex`, `brigade host-hook codex …`, and its
 * app-server door for the push lane (`openDoor`, docs/49-codex.md "The push lane").
 */
export const CODEX_CLIENT: HostClient = {
  name: "codex",
  title: "Codex CLI",
  hookEvents: CODEX_BRIGADE_EVENTS,
  runHook: (event, stdin, deps) =>
    runHostHook(CODEX_LANE_HOOK_SPEC, event as CodexBrigadeEvent, stdin, deps),
  install: (env, command) => {
    const configDir = harnessConfigDir(env);
    if (configDir === undefined) return NO_CONFIG_DIR;
    return installCodex(env, command, configDir, currentUid(), new Date());
  },
  uninstall: (env) => {
    const configDir = harnessConfigDir(env);
    if (configDir === undefined) return NO_CONFIG_DIR;
    return uninstallCodex(configDir, currentUid());
  },
  dotenvFiles: CODEX_HOOK_SPEC.dotenvFiles,
  insideSession: (env) => CODEX_SESSION_VARIABLES.some((name) => (env[name] ?? "") !== ""),
  openDoor: (session, ctx) => openCodexLaneDoor(session, ctx),
  processSignature: CODEX_PROCESS_SIGNATURE,
};
