import { join } from "node:path";
import { readLocalFile } from "../../local-files/index.ts";
import { isJsonObject, type JsonValue, parseJsonDocument } from "../../protocol/index.ts";
import { isClaudePid } from "./claude-pid.ts";

/**
 * What a hook takes from Claude Code's session registry `sessions/<pid>.json`
 * (docs/spec/claude-code.md §5). Every member is `""` when the file is missing, malformed, too
 * large or the member is of the wrong type; `status` is `busy` only when the file says exactly
 * `busy`.
 *
 * @example const r: SessionRegistryInfo = { name: "api-3f2a", nameSource: "derived", status: "idle", messagingSocketPath: "", entrypoint: "cli", kind: "interactive", version: "2.1.328" };
 */
export interface SessionRegistryInfo {
  readonly name: string;
  readonly nameSource: string;
  readonly status: "busy" | "idle";
  readonly messagingSocketPath: string;
  readonly entrypoint: string;
  readonly kind: string;
  readonly version: string;
}

/** Largest session registry file read, bytes (docs/spec/claude-code.md §5: 256 KiB). */
export const MAX_REGISTRY_BYTES = 262_144;

/** The registry of a session whose file is missing or unusable. */
export const EMPTY_REGISTRY: SessionRegistryInfo = {
  name: "",
  nameSource: "",
  status: "idle",
  messagingSocketPath: "",
  entrypoint: "",
  kind: "",
  version: "",
};

/**
 * Parses registry bytes into {@link SessionRegistryInfo}; anything unusable gives empty values.
 * Never throws.
 *
 * @example parseSessionRegistry(new TextEncoder().encode('{"status":"busy"}')).status === "busy"
 */
export function parseSessionRegistry(bytes: Uint8Array): SessionRegistryInfo {
  const parsed = parseJsonDocument(bytes, { maxBytes: MAX_REGISTRY_BYTES });
  if (!parsed.ok || !isJsonObject(parsed.value)) return EMPTY_REGISTRY;
  const o = parsed.value;
  const s = (name: string): string => {
    const v: JsonValue | undefined = o[name];
    return typeof v === "string" ? v : "";
  };
  return {
    name: s("name"),
    nameSource: s("nameSource"),
    status: s("status") === "busy" ? "busy" : "idle",
    messagingSocketPath: s("messagingSocketPath"),
    entrypoint: s("entrypoint"),
    kind: s("kind"),
    version: s("version"),
  };
}

/**
 * Reads exactly `<configDir>/sessions/<claudePid>.json` (docs/spec/claude-code.md §5): never lists
 * the folder, never opens the `<pid>.<sha>.key` beside it, never writes; at most 256 KiB; a
 * non-decimal pid, a missing folder or any bad file → {@link EMPTY_REGISTRY}. Never throws.
 *
 * @example readSessionRegistry("/home/dana/.claude", "4242").version
 */
export function readSessionRegistry(
  configDir: string | undefined,
  claudePid: string,
): SessionRegistryInfo {
  if (configDir === undefined || !isClaudePid(claudePid)) return EMPTY_REGISTRY;
  const read = readLocalFile(join(configDir, "sessions", `${claudePid}.json`), {
    maxBytes: MAX_REGISTRY_BYTES,
    followSymlink: true,
  });
  return read.ok ? parseSessionRegistry(read.bytes) : EMPTY_REGISTRY;
}
