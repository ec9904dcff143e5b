import { isAbsolute, join } from "node:path";
import type { InboundSettingBefore } from "../../harness/claude-code/index.ts";
import { readChangeRecord, writeChangeRecord } from "../../harness/host-session/index.ts";
import { isJsonObject } from "../../protocol/index.ts";

/**
 * What Brigade changed in Claude Code's settings with the person's yes, and what was there
 * before, so `brigade uninstall` can put it back (docs/46-cli.md "Claude Code's inbound setting"):
 * `claude-settings-changes.json` in the person's configuration folder, 0600.
 */

/** One change: the member `crossSessionInbound` set to `accept` in `file`. */
export interface SettingsChange {
  /** Absolute path of the settings file changed (the user `settings.json`). */
  readonly file: string;
  /** What the file held before: `absent` (no such key) or `no_file`. */
  readonly before: InboundSettingBefore;
  /** When the person said yes, RFC 3339. */
  readonly at: string;
}

/** Largest record read, bytes: a handful of changes. */
const MAX_RECORD_BYTES = 65_536;

/** The record's path in `configDir`. */
function recordPath(configDir: string): string {
  return join(configDir, "claude-settings-changes.json");
}

/**
 * Why the record could not be read (docs/errors.md): `not_private` (not a regular file of ours
 * without group or other permission bits), `unreadable`, `malformed` (not the record's JSON).
 *
 * @example SETTINGS_CHANGES_REFUSALS.includes("malformed") === true
 */
export const SETTINGS_CHANGES_REFUSALS = ["not_private", "unreadable", "malformed"] as const;

/** One {@link SETTINGS_CHANGES_REFUSALS} reason. */
export type SettingsChangesRefusal = (typeof SETTINGS_CHANGES_REFUSALS)[number];

/** Result of {@link readSettingsChanges}. */
export type SettingsChangesRead =
  | { readonly ok: true; readonly changes: readonly SettingsChange[] }
  | { readonly ok: false; readonly reason: SettingsChangesRefusal };

function changeOf(value: unknown): SettingsChange | undefined {
  if (!isJsonObject(value)) return undefined;
  const { file, before, at } = value;
  if (typeof file !== "string" || !isAbsolute(file) || typeof at !== "string") return undefined;
  if (before !== "absent" && before !== "no_file") return undefined;
  if (value.member !== "crossSessionInbound" || value.value !== "accept") return undefined;
  return { file, before, at };
}

/**
 * The changes recorded in `configDir` (none when there is no record), read as the other private
 * files are: no symlink followed, a regular file of ours without group or other permission bits,
 * at most 64 KiB of strict JSON, every change well formed (`malformed` otherwise). Never throws.
 *
 * @example const read = readSettingsChanges("/home/dana/.config/brigade", 1000);
 */
export function readSettingsChanges(configDir: string, uid: number): SettingsChangesRead {
  return readChangeRecord(recordPath(configDir), uid, MAX_RECORD_BYTES, changeOf);
}

/**
 * Writes `changes` as the whole record in `configDir` (the folder made or tightened 0700, the
 * file written 0600 atomically; an empty list leaves a record of no changes). Returns whether it
 * was written; never throws.
 *
 * @example writeSettingsChanges(dir, [{ file: "/home/dana/.claude/settings.json", before: "absent", at }])
 */
export function writeSettingsChanges(
  configDir: string,
  changes: readonly SettingsChange[],
): boolean {
  return writeChangeRecord(
    configDir,
    recordPath(configDir),
    changes.map((change) => ({
      file: change.file,
      member: "crossSessionInbound",
      value: "accept",
      before: change.before,
      at: change.at,
    })),
  );
}
