import { isJsonObject, parseJsonDocument } from "../../protocol/index.ts";
import { readPrivateStateFile, writePrivateStateFile } from "../state/index.ts";

/**
 * Result of {@link readChangeRecord}; the refusals are `SETTINGS_CHANGES_REFUSALS`'
 * (docs/errors.md).
 */
export type ChangeRecordRead<T> =
  | { readonly ok: true; readonly changes: readonly T[] }
  | { readonly ok: false; readonly reason: "not_private" | "unreadable" | "malformed" };

/**
 * The changes a client's install recorded at `path` (`{version: 1, changes: [...]}`; none when
 * there is no record), read as every private file is: no symlink followed, a regular file of
 * ours without group or other permission bits, at most `maxBytes` of strict JSON, every change
 * accepted by `changeOf` (`malformed` otherwise). Never throws.
 *
 * @example readChangeRecord(join(dir, "codex-config-changes.json"), 1000, 262_144, codexChangeOf)
 */
export function readChangeRecord<T>(
  path: string,
  uid: number,
  maxBytes: number,
  changeOf: (value: unknown) => T | undefined,
): ChangeRecordRead<T> {
  const read = readPrivateStateFile(path, { maxBytes, uid });
  if (read.kind === "missing") return { ok: true, changes: [] };
  if (read.kind === "not_private") return { ok: false, reason: "not_private" };
  if (read.kind !== "ok") return { ok: false, reason: "unreadable" };
  const parsed = parseJsonDocument(read.bytes, { maxBytes });
  if (!parsed.ok || !isJsonObject(parsed.value) || parsed.value.version !== 1) {
    return { ok: false, reason: "malformed" };
  }
  const list = parsed.value.changes;
  if (!Array.isArray(list)) return { ok: false, reason: "malformed" };
  const changes = list.map(changeOf);
  if (changes.some((change) => change === undefined)) return { ok: false, reason: "malformed" };
  return { ok: true, changes: changes.filter((change): change is T => change !== undefined) };
}

/**
 * Writes `changes` as the whole record at `path` inside `configDir` (folder 0700, file 0600,
 * atomic). Returns whether it was written; never throws.
 *
 * @example writeChangeRecord(dir, join(dir, "cline-config-changes.json"), [{ file, before: null, after, at }])
 */
export function writeChangeRecord(
  configDir: string,
  path: string,
  changes: readonly unknown[],
): boolean {
  try {
    writePrivateStateFile(configDir, path, `${JSON.stringify({ version: 1, changes }, null, 2)}\n`);
    return true;
  } catch {
    return false;
  }
}
