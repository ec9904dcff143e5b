import { currentUid } from "../../local-files/index.ts";
import type { HostClient } from "../host-session/index.ts";
import { QWEN_DOTENV_FILES, QWEN_PROCESS_SIGNATURE, QWEN_SESSION_VARIABLE } from "./qwen-facts.ts";
import { QWEN_HOOK_EVENTS, type QwenHookEvent, runQwenHook } from "./qwen-hook.ts";
import { installQwen, uninstallQwen } from "./qwen-install.ts";
import { openQwenDoor } from "./qwen-push-door.ts";

/**
 * Qwen Code (docs/49-qwen.md): its measured facts, its cross-session peer door and the delivery
 * over it, and its pull lane (hooks and `brigade mcp`, installed as an extension).
 */
export * from "./qwen-conversation.ts";
export * from "./qwen-delivery.ts";
export * from "./qwen-door.ts";
export * from "./qwen-extension.ts";
export * from "./qwen-facts.ts";
export * from "./qwen-frames.ts";
export * from "./qwen-hook.ts";
export * from "./qwen-install.ts";
export * from "./qwen-push-door.ts";
export * from "./qwen-receipts.ts";
export * from "./qwen-registry.ts";
export * from "./qwen-token.ts";

/** Qwen Code as a {@link HostClient}: `brigade install qwen`, `brigade host-hook qwen …`. */
export const QWEN_CLIENT: HostClient = {
  name: "qwen",
  title: "Qwen Code",
  hookEvents: QWEN_HOOK_EVENTS,
  runHook: (event, stdin, deps) => runQwenHook(event as QwenHookEvent, stdin, deps),
  install: installQwen,
  uninstall: uninstallQwen,
  dotenvFiles: QWEN_DOTENV_FILES,
  insideSession: (env) => (env[QWEN_SESSION_VARIABLE] ?? "") !== "",
  openDoor: (session, ctx) => openQwenDoor(session, ctx, { uid: currentUid() }),
  processSignature: QWEN_PROCESS_SIGNATURE,
};
