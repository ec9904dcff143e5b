import { currentUid } from "../../local-files/index.ts";
import type { HostClient } from "../host-session/index.ts";
import { openOpenCodeSessionDoor } from "./opencode-door-address.ts";
import {
  OPENCODE_COMMAND_ENV,
  OPENCODE_DOTENV_FILES,
  OPENCODE_PROCESS_SIGNATURE,
  OPENCODE_SESSION_VARIABLE,
} from "./opencode-facts.ts";
import { OPENCODE_HOOK_EVENTS, type OpenCodeHookEvent, runOpenCodeHook } from "./opencode-hook.ts";
import { installOpenCode, uninstallOpenCode } from "./opencode-install.ts";

/**
 * OpenCode (docs/49-opencode.md): its measured facts, its server's v1 session API and the door
 * over it, and its pull lane (a plugin that binds sessions and adds `brigade mcp`).
 */
export * from "./opencode-door.ts";
export * from "./opencode-door-address.ts";
export * from "./opencode-facts.ts";
export * from "./opencode-hook.ts";
export * from "./opencode-install.ts";
export * from "./opencode-message-id.ts";
export * from "./opencode-plugin.ts";
export * from "./opencode-server.ts";

/** OpenCode as a {@link HostClient}: `brigade install opencode`, `brigade host-hook opencode …`. */
export const OPENCODE_CLIENT: HostClient = {
  name: "opencode",
  title: "OpenCode",
  hookEvents: OPENCODE_HOOK_EVENTS,
  runHook: (event, stdin, deps) => runOpenCodeHook(event as OpenCodeHookEvent, stdin, deps),
  install: installOpenCode,
  uninstall: uninstallOpenCode,
  dotenvFiles: OPENCODE_DOTENV_FILES,
  insideSession: (env) =>
    (env[OPENCODE_SESSION_VARIABLE] ?? "") !== "" ||
    Object.entries(OPENCODE_COMMAND_ENV).every(([name, value]) => env[name] === value),
  openDoor: async (session, ctx) =>
    openOpenCodeSessionDoor(
      session.map.claude_session_id,
      session.map.claude_pid,
      session.env,
      currentUid(),
      ctx,
    ),
  processSignature: OPENCODE_PROCESS_SIGNATURE,
};
