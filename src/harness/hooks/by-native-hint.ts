import { isJsonObject, parseJsonDocument } from "../../protocol/index.ts";
import { readPrivateStateFile, type StateLayout, writePrivateStateFile } from "../state/index.ts";

/**
 * The resume hint `sessions/by-native/<stem(claude_session_id)>.json`
 * (docs/spec/claude-code.md §7.1): which Brigade session a native Claude Code session had, so
 * `claude --resume` re-opens it. It survives SessionEnd. Holds no token and no native id (the file
 * name is the native id's stem).
 *
 * @example const hint: ByNativeHint = { brigade_session_id: "s-1", team_ref: "t-1", session_name: "api", updated_at: "2026-11-02T09:15:42Z" };
 */
export interface ByNativeHint {
  readonly brigade_session_id: string;
  readonly team_ref: string;
  readonly session_name: string;
  readonly updated_at: string;
}

const MAX_HINT_BYTES = 16_384;

/**
 * Reads the hint of `claudeSessionId` through the private-file checks (missing, foreign,
 * non-private or malformed → `undefined`). Never throws.
 *
 * @example readByNativeHint(layout, "5d1c…", uid)?.brigade_session_id
 */
export function readByNativeHint(
  layout: StateLayout,
  claudeSessionId: string,
  uid: number,
): ByNativeHint | undefined {
  if (claudeSessionId === "") return undefined;
  const read = readPrivateStateFile(layout.byNative(claudeSessionId), {
    maxBytes: MAX_HINT_BYTES,
    uid,
  });
  if (read.kind !== "ok") return undefined;
  const parsed = parseJsonDocument(read.bytes, { maxBytes: MAX_HINT_BYTES });
  if (!parsed.ok || !isJsonObject(parsed.value)) return undefined;
  const o = parsed.value;
  const names = ["brigade_session_id", "team_ref", "session_name", "updated_at"] as const;
  for (const name of names) if (typeof o[name] !== "string") return undefined;
  if (o.brigade_session_id === "") return undefined;
  return {
    brigade_session_id: o.brigade_session_id as string,
    team_ref: o.team_ref as string,
    session_name: o.session_name as string,
    updated_at: o.updated_at as string,
  };
}

/**
 * Writes the hint of `claudeSessionId` (0700 folders, 0600 file, atomic).
 *
 * @throws PrivateFileError when it cannot be written privately.
 * @example writeByNativeHint(layout, "5d1c…", hint);
 */
export function writeByNativeHint(
  layout: StateLayout,
  claudeSessionId: string,
  hint: ByNativeHint,
): void {
  writePrivateStateFile(layout.root, layout.byNative(claudeSessionId), `${JSON.stringify(hint)}\n`);
}
