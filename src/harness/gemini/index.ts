import type { HostClient, HostHookEvent } from "../host-session/index.ts";
import { runHostHook } from "../host-session/index.ts";
import {
  GEMINI_FACTS,
  GEMINI_PROCESS_SIGNATURE,
  GEMINI_SESSION_VARIABLES,
} from "./gemini-facts.ts";
import { GEMINI_HOOK_EVENTS, GEMINI_HOOK_SPEC } from "./gemini-hook.ts";
import { installGemini, uninstallGemini } from "./gemini-install.ts";

export {
  GEMINI_EXTENSION_NAME,
  GEMINI_POLICY_MARK,
  geminiExtensionFiles,
  geminiPolicyFile,
  shellWord,
} from "./gemini-extension.ts";
/**
 * Gemini CLI (docs/49-hosts.md "Gemini CLI"): its measured facts, its hooks, its extension and
 * its install. A pull-lane client: the hooks bind the session and give the per-turn notice, the
 * `inbox` tool of `brigade mcp` delivers.
 */
export { GEMINI_FACTS, type GeminiFacts } from "./gemini-facts.ts";
export {
  GEMINI_EVENT_NAMES,
  GEMINI_HOOK_EVENTS,
  GEMINI_HOOK_SPEC,
  GEMINI_HOST,
  geminiHookOutput,
} from "./gemini-hook.ts";
export {
  geminiExtensionDir,
  geminiPolicyPath,
  installGemini,
  uninstallGemini,
} from "./gemini-install.ts";
export { geminiVersionOf } from "./gemini-version.ts";

/** Gemini CLI as a {@link HostClient}: `brigade install gemini`, `brigade host-hook gemini …`. */
export const GEMINI_CLIENT: HostClient = {
  name: "gemini",
  title: "Gemini CLI",
  hookEvents: GEMINI_HOOK_EVENTS,
  runHook: (event, stdin, deps) =>
    runHostHook(GEMINI_HOOK_SPEC, event as HostHookEvent, stdin, deps),
  install: installGemini,
  uninstall: uninstallGemini,
  dotenvFiles: GEMINI_FACTS.dotenvFiles,
  insideSession: (env) => GEMINI_SESSION_VARIABLES.some((name) => (env[name] ?? "") !== ""),
  processSignature: GEMINI_PROCESS_SIGNATURE,
};
