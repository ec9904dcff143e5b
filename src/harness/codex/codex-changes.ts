import { isAbsolute, join } from "node:path";
import { isJsonObject } from "../../protocol/index.ts";
import {
  type ChangeRecordRead,
  readChangeRecord,
  writeChangeRecord,
} from "../host-session/index.ts";

/**
 * What `brigade install codex` changed in Codex's configuration with the person's yes, so
 * `brigade uninstall codex` takes out exactly that (docs/49-codex.md): `codex-config-changes.json`
 * in the person's Brigade configuration folder, 0600.
 */

/** One change: Brigade's block added to `file`. */
export interface CodexConfigChange {
  /** Absolute path of the Codex `config.toml` changed. */
  readonly file: string;
  /** The exact text added (separator and block). */
  readonly inserted: string;
  /** Whether Brigade created the file (it did not exist). */
  readonly created: boolean;
  /** When the person said yes, RFC 3339. */
  readonly at: string;
}

/** Largest record read, bytes. */
const MAX_RECORD_BYTES = 262_144;

/** The record's path in `configDir`. */
export function codexChangesPath(configDir: string): string {
  return join(configDir, "codex-config-changes.json");
}

/** Result of {@link readCodexChanges}; the refusals are `SETTINGS_CHANGES_REFUSALS`' (docs/errors.md). */
export type CodexChangesRead = ChangeRecordRead<CodexConfigChange>;

function changeOf(value: unknown): CodexConfigChange | undefined {
  if (!isJsonObject(value)) return undefined;
  const { file, inserted, created, at } = value;
  if (typeof file !== "string" || !isAbsolute(file) || typeof at !== "string") return undefined;
  if (typeof inserted !== "string" || typeof created !== "boolean") return undefined;
  return { file, inserted, created, at };
}

/**
 * The changes recorded in `configDir` (none when there is no record), read as every private file
 * is: no symlink followed, a regular file of ours without group or other permission bits, at most
 * 256 KiB of strict JSON, every change well formed (`malformed` otherwise). Never throws.
 *
 * @example const read = readCodexChanges("/home/dana/.config/brigade", 1000);
 */
export function readCodexChanges(configDir: string, uid: number): CodexChangesRead {
  return readChangeRecord(codexChangesPath(configDir), uid, MAX_RECORD_BYTES, changeOf);
}

/**
 * Writes `changes` as the whole record in `configDir` (folder 0700, file 0600, atomic). Returns
 * whether it was written; never throws.
 *
 * @example writeCodexChanges(dir, [{ file: "/home/dana/.codex/config.toml", inserted, created: false, at }])
 */
export function writeCodexChanges(
  configDir: string,
  changes: readonly CodexConfigChange[],
): boolean {
  return writeChangeRecord(configDir, codexChangesPath(configDir), changes);
}
