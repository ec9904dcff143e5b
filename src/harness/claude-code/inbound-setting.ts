import { lstatSync, type Stats, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import {
  createFileExclusive,
  type LocalFileRefusal,
  readLocalFile,
  writeFileAtomic,
} from "../../local-files/index.ts";
import { isJsonObject, type JsonValue, parseJsonDocument } from "../../protocol/index.ts";
import { MAX_SETTINGS_BYTES } from "./settings-scan.ts";
import { removeTopLevelMember } from "./top-level-member.ts";

/**
 * Why the user `settings.json` was left alone by {@link ensureInboundAcceptSetting} or
 * {@link removeInboundAcceptSetting} (docs/spec/claude-code.md §4):
 * `no_directory` (the file is missing and so is its folder: nothing is created), `symlink` (the
 * file is a symbolic link: never followed), `not_regular`, `not_owned` (owned by another user),
 * `too_large` (over 1 MiB), `unreadable`, `not_json_object` (not one strict JSON object: invalid,
 * repeated member, BOM), `verify_failed` (the re-parsed result is not the original object with
 * the one member added or taken out — a bug guard), `changed_meanwhile` (the file changed while
 * we worked), `write_failed`. `brigade doctor --fix` and `brigade uninstall` name them.
 *
 * @example INBOUND_SETTING_REFUSALS.includes("symlink") === true
 */
export const INBOUND_SETTING_REFUSALS = [
  "no_directory",
  "symlink",
  "not_regular",
  "not_owned",
  "too_large",
  "unreadable",
  "not_json_object",
  "verify_failed",
  "changed_meanwhile",
  "write_failed",
] as const;

/** One {@link INBOUND_SETTING_REFUSALS} token. */
export type InboundSettingRefusal = (typeof INBOUND_SETTING_REFUSALS)[number];

/** What {@link ensureInboundAcceptSetting} did. */
export type InboundSettingOutcome =
  | { readonly kind: "inserted" | "created" | "present" }
  | { readonly kind: "refused"; readonly reason: InboundSettingRefusal };

/** How a refused read of the settings file is reported: a symlink or a file gone since the lstat is `unreadable`, as any other failure. */
const READ_REFUSAL: Readonly<Record<LocalFileRefusal, InboundSettingRefusal>> = {
  missing: "unreadable",
  symlink: "unreadable",
  not_regular: "not_regular",
  not_owned: "not_owned",
  not_private: "unreadable",
  changed_meanwhile: "changed_meanwhile",
  too_large: "too_large",
  unreadable: "unreadable",
};

/** The member inserted, exactly these bytes. */
const MEMBER = '"crossSessionInbound": "accept"';
const NEW_FILE = `{${MEMBER}}\n`;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function refused(reason: InboundSettingRefusal): {
  kind: "refused";
  reason: InboundSettingRefusal;
} {
  return { kind: "refused", reason };
}

function isJsonSpace(b: number | undefined): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => jsonEqual(v, b[i]));
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
}

/**
 * The bytes of `original` (one JSON object) with `"crossSessionInbound": "accept"` inserted as
 * its first member, every other byte kept: right after the opening `{`, repeating the whitespace
 * that followed it (so an indented file stays indented), with a `,` when the object has members.
 * `undefined` when `original` does not start (after JSON whitespace) with `{`.
 *
 * @example new TextDecoder().decode(insertAcceptMember(enc('{\n  "a": 1\n}'))!) === '{\n  "crossSessionInbound": "accept",\n  "a": 1\n}'
 */
export function insertAcceptMember(original: Uint8Array): Uint8Array | undefined {
  let brace = 0;
  while (isJsonSpace(original[brace])) brace += 1;
  if (original[brace] !== 0x7b) return undefined;
  let next = brace + 1;
  while (isJsonSpace(original[next])) next += 1;
  const empty = original[next] === 0x7d;
  const space = original.subarray(brace + 1, next);
  const insert = encoder.encode(empty ? MEMBER : `${MEMBER},`);
  const head = original.subarray(0, brace + 1);
  const out = new Uint8Array(original.length + (empty ? 0 : space.length) + insert.length);
  out.set(head, 0);
  let at = head.length;
  if (!empty) {
    out.set(space, at);
    at += space.length;
  }
  out.set(insert, at);
  out.set(original.subarray(brace + 1), at + insert.length);
  return out;
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/** The user settings as read: the file's stat, its bytes and its object; or why not. */
type SettingsRead =
  | {
      readonly ok: true;
      readonly before: Stats;
      readonly bytes: Uint8Array;
      readonly object: { readonly [key: string]: JsonValue };
    }
  | { readonly ok: false; readonly missing: boolean; readonly reason: InboundSettingRefusal };

/**
 * Reads `path` the one way both edits accept it: a regular file (never a symlink), ours, at most
 * 1 MiB, holding one strict JSON object. `missing` when there is no file at all.
 */
function readSettings(path: string, uid: number): SettingsRead {
  const no = (reason: InboundSettingRefusal, missing = false): SettingsRead => ({
    ok: false,
    missing,
    reason,
  });
  let before: Stats;
  try {
    before = lstatSync(path);
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    return no("unreadable", missing);
  }
  if (before.isSymbolicLink()) return no("symlink");
  if (!before.isFile()) return no("not_regular");
  if (uid >= 0 && before.uid !== uid) return no("not_owned");
  if (before.size > MAX_SETTINGS_BYTES) return no("too_large");
  const read = readLocalFile(path, { maxBytes: MAX_SETTINGS_BYTES, sameAs: before });
  if (!read.ok) return no(READ_REFUSAL[read.reason]);
  const parsed = parseJsonDocument(read.bytes, { maxBytes: MAX_SETTINGS_BYTES });
  if (!parsed.ok || !isJsonObject(parsed.value)) return no("not_json_object");
  return { ok: true, before, bytes: read.bytes, object: parsed.value };
}

/**
 * Replaces the file read as `read` with `updated` after checking that `updated` re-parses to
 * `expected` (else `verify_failed`): a sibling temporary file with the file's own permission
 * bits, renamed over it only if the file did not change meanwhile.
 */
function replaceSettings(
  path: string,
  read: Extract<SettingsRead, { ok: true }>,
  updated: Uint8Array,
  expected: JsonValue,
): InboundSettingRefusal | undefined {
  const reparsed = parseJsonDocument(updated, { maxBytes: Math.max(1, updated.length) });
  if (!reparsed.ok || !jsonEqual(expected, reparsed.value)) return "verify_failed";
  const written = writeFileAtomic(path, updated, {
    mode: read.before.mode & 0o7777,
    unchanged: () => {
      const now = lstatSync(path);
      return now.isFile() && sameFile(read.before, now);
    },
  });
  if (written.ok) return undefined;
  return written.reason === "changed_meanwhile" ? "changed_meanwhile" : "write_failed";
}

/**
 * Makes the **user** `settings.json` (`<claudeConfigDir>/settings.json`) say
 * `"crossSessionInbound": "accept"` when it says nothing, so a session that bypasses permission
 * prompts does not hold every teammate's post for a dialog (docs/spec/claude-code.md §4). It
 * changes Claude Code's safety for every sender, so only the person's own yes in their terminal
 * runs it (`brigade doctor --fix`); the plugin never does.
 * - the key present at top level, whatever its value (even `hold`) → `present`, nothing touched;
 * - a missing file → created `{"crossSessionInbound": "accept"}\n`, mode 0600, only if its folder
 *   exists (`created`; never over a file that appeared meanwhile);
 * - else only a regular file (never a symlink), ours, ≤ 1 MiB, holding one strict JSON object:
 *   the member is inserted first ({@link insertAcceptMember}, every other byte kept), the result
 *   re-parsed and compared with the original object plus that member, written to a sibling temp
 *   file with the file's own permission bits, and renamed over it if the file did not change
 *   meanwhile (`inserted`).
 * Anything else → `refused` with an {@link InboundSettingRefusal}. Never throws.
 *
 * @example ensureInboundAcceptSetting("/home/dana/.claude", 1000) // { kind: "inserted" }
 */
export function ensureInboundAcceptSetting(
  claudeConfigDir: string,
  uid: number,
): InboundSettingOutcome {
  const path = join(claudeConfigDir, "settings.json");
  const read = readSettings(path, uid);
  if (!read.ok) return read.missing ? createSettings(claudeConfigDir, path) : refused(read.reason);
  if (Object.hasOwn(read.object, "crossSessionInbound")) return { kind: "present" };
  const updated = insertAcceptMember(read.bytes);
  if (updated === undefined) return refused("not_json_object");
  const why = replaceSettings(path, read, updated, {
    ...read.object,
    crossSessionInbound: "accept",
  });
  return why === undefined ? { kind: "inserted" } : refused(why);
}

/**
 * What the user settings held before {@link ensureInboundAcceptSetting} changed them, so the undo
 * can put it back: `absent` (a file without the key: `inserted`), `no_file` (`created`).
 */
export type InboundSettingBefore = "absent" | "no_file";

/** What {@link removeInboundAcceptSetting} did. */
export type InboundSettingUndo =
  | {
      /**
       * `removed` (the member is gone, every other byte kept), `file_removed` (the file Brigade
       * created, unchanged since, is deleted), `already_absent` (the key is gone already),
       * `changed` (the key now says something else: the person's own value, left alone).
       */
      readonly kind: "removed" | "file_removed" | "already_absent" | "changed";
    }
  | { readonly kind: "refused"; readonly reason: InboundSettingRefusal };

/**
 * Puts back what the user `settings.json` held before {@link ensureInboundAcceptSetting} added
 * `"crossSessionInbound": "accept"` (`before`): the top-level member is taken out again with every
 * other byte kept ({@link removeTopLevelMember}: the exact inverse of the insertion when nothing
 * else changed; a file Claude Code rewrote since keeps its rewrite), re-parsed and compared with
 * the object without it, and written like the insertion; a file Brigade created and nobody
 * changed (`no_file`, still exactly `{"crossSessionInbound": "accept"}\n`) is deleted. A key that
 * now holds another value is the person's and stays (`changed`); a missing key or file is
 * `already_absent`. The same file checks as the insertion (`refused`). Never throws.
 *
 * @example removeInboundAcceptSetting("/home/dana/.claude", 1000, "absent") // { kind: "removed" }
 */
export function removeInboundAcceptSetting(
  claudeConfigDir: string,
  uid: number,
  before: InboundSettingBefore,
): InboundSettingUndo {
  const path = join(claudeConfigDir, "settings.json");
  const read = readSettings(path, uid);
  if (!read.ok) return read.missing ? { kind: "already_absent" } : refused(read.reason);
  if (!Object.hasOwn(read.object, "crossSessionInbound")) return { kind: "already_absent" };
  if (read.object.crossSessionInbound !== "accept") return { kind: "changed" };
  if (before === "no_file" && decoder.decode(read.bytes) === NEW_FILE) {
    return deleteSettings(path, read.before);
  }
  const text = removeTopLevelMember(decoder.decode(read.bytes), "crossSessionInbound");
  if (text === undefined) return refused("not_json_object");
  const { crossSessionInbound: _removed, ...rest } = read.object;
  const why = replaceSettings(path, read, encoder.encode(text), rest);
  return why === undefined ? { kind: "removed" } : refused(why);
}

/** Deletes the file Brigade created, if it is still the one read. */
function deleteSettings(path: string, before: Stats): InboundSettingUndo {
  try {
    const now = lstatSync(path);
    if (!now.isFile() || !sameFile(before, now)) return refused("changed_meanwhile");
    unlinkSync(path);
    return { kind: "file_removed" };
  } catch {
    return refused("write_failed");
  }
}

function createSettings(dir: string, path: string): InboundSettingOutcome {
  try {
    if (!statSync(dir).isDirectory()) return refused("no_directory");
  } catch {
    return refused("no_directory");
  }
  // exclusive: never replaces a settings.json that appeared meanwhile
  const created = createFileExclusive(path, NEW_FILE, { mode: 0o600 });
  if (!created.ok)
    return refused(created.reason === "exists" ? "changed_meanwhile" : "write_failed");
  return { kind: "created" };
}
