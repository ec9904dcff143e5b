import { isAbsolute, join } from "node:path";
import { isJsonObject } from "../../protocol/index.ts";
import {
  type ChangeRecordRead,
  readChangeRecord,
  writeChangeRecord,
} from "../host-session/index.ts";

/**
 * What `brigade install cline` changed in Cline's MCP settings with the person's yes, so
 * `brigade uninstall cline` puts the bytes back (docs/49-cline.md "Install"):
 * `cline-config-changes.json` in the person's Brigade configuration folder, 0600.
 */

/** One change: the whole text of a settings file before and after Brigade's entry was added. */
export interface ClineSettingsChange {
  /** Absolute path of the `cline_mcp_settings.json` changed. */
  readonly file: string;
  /** Its text before, or `null` when Brigade created it. */
  readonly before: string | null;
  /** Its text as Brigade wrote it. */
  readonly after: string;
  /** When the person said yes, RFC 3339. */
  readonly at: string;
}

/** Largest record read, bytes: two settings files of at most 1 MiB each, escaped. */
const MAX_RECORD_BYTES = 8_388_608;

/** The record's path in `configDir`. */
export function clineChangesPath(configDir: string): string {
  return join(configDir, "cline-config-changes.json");
}

/** Result of {@link readClineChanges}. */
export type ClineChangesRead = ChangeRecordRead<ClineSettingsChange>;

function changeOf(value: unknown): ClineSettingsChange | undefined {
  if (!isJsonObject(value)) return undefined;
  const { file, before, after, at } = value;
  if (typeof file !== "string" || !isAbsolute(file) || typeof at !== "string") return undefined;
  if (typeof after !== "string" || (before !== null && typeof before !== "string")) {
    return undefined;
  }
  return { file, before, after, at };
}

/**
 * The changes recorded in `configDir` (none when there is no record), read as every private file
 * is: no symlink followed, a regular file of ours without group or other permission bits, at most
 * 8 MiB of strict JSON, every change well formed (`malformed` otherwise). Never throws.
 *
 * @example const read = readClineChanges("/home/dana/.config/brigade", 1000);
 */
export function readClineChanges(configDir: string, uid: number): ClineChangesRead {
  return readChangeRecord(clineChangesPath(configDir), uid, MAX_RECORD_BYTES, changeOf);
}

/**
 * Writes `changes` as the whole record in `configDir` (folder 0700, file 0600, atomic). Returns
 * whether it was written; never throws.
 *
 * @example writeClineChanges(dir, [{ file, before: null, after, at }])
 */
export function writeClineChanges(
  configDir: string,
  changes: readonly ClineSettingsChange[],
): boolean {
  return writeChangeRecord(configDir, clineChangesPath(configDir), changes);
}
