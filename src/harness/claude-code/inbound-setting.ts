import { lstatSync, type Stats, statSync } from "node:fs";
import { join } from "node:path";
import {
  createFileExclusive,
  type LocalFileRefusal,
  readLocalFile,
  writeFileAtomic,
} from "../../local-files/index.ts";
import { isJsonObject, type JsonValue, parseJsonDocument } from "../../protocol/index.ts";
import { MAX_SETTINGS_BYTES } from "./settings-scan.ts";

/**
 * Why `claude_inbound_setting` left the user `settings.json` alone (docs/spec/claude-code.md §4):
 * `no_directory` (the file is missing and so is its folder: nothing is created), `symlink` (the
 * file is a symbolic link: never followed), `not_regular`, `not_owned` (owned by another user),
 * `too_large` (over 1 MiB), `unreadable`, `not_json_object` (not one strict JSON object: invalid,
 * repeated member, BOM), `verify_failed` (the re-parsed result is not the original object with
 * the one member added — a bug guard), `changed_meanwhile` (the file changed while we worked),
 * `write_failed`. Logged to stderr only; the hook prints nothing for them.
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

function refused(reason: InboundSettingRefusal): InboundSettingOutcome {
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

/**
 * The `claude_inbound_setting` option (docs/spec/claude-code.md §4): makes the **user**
 * `settings.json` (`<claudeConfigDir>/settings.json`) say `"crossSessionInbound": "accept"` when it
 * says nothing, so a session that bypasses permission prompts does not hold every post for a
 * dialog. The caller runs it only in such a session (`permission_mode` `bypassPermissions`, which
 * only UserPromptSubmit reports) and only while the option is on.
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
 * @example ensureInboundAcceptSetting("/home/dana/.claude") // { kind: "inserted" }
 */
export function ensureInboundAcceptSetting(
  claudeConfigDir: string,
  uid: number,
): InboundSettingOutcome {
  const path = join(claudeConfigDir, "settings.json");
  let before: Stats;
  try {
    before = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") return refused("unreadable");
    return createSettings(claudeConfigDir, path);
  }
  if (before.isSymbolicLink()) return refused("symlink");
  if (!before.isFile()) return refused("not_regular");
  if (uid >= 0 && before.uid !== uid) return refused("not_owned");
  if (before.size > MAX_SETTINGS_BYTES) return refused("too_large");
  const read = readLocalFile(path, { maxBytes: MAX_SETTINGS_BYTES, sameAs: before });
  if (!read.ok) return refused(READ_REFUSAL[read.reason]);
  const original = read.bytes;
  const parsed = parseJsonDocument(original, { maxBytes: MAX_SETTINGS_BYTES });
  if (!parsed.ok || !isJsonObject(parsed.value)) return refused("not_json_object");
  if (Object.hasOwn(parsed.value, "crossSessionInbound")) return { kind: "present" };
  const updated = insertAcceptMember(original);
  if (updated === undefined) return refused("not_json_object");
  const reparsed = parseJsonDocument(updated, { maxBytes: updated.length });
  if (
    !reparsed.ok ||
    !isJsonObject(reparsed.value) ||
    reparsed.value.crossSessionInbound !== "accept" ||
    !jsonEqual({ ...parsed.value, crossSessionInbound: "accept" }, reparsed.value)
  ) {
    return refused("verify_failed");
  }
  const written = writeFileAtomic(path, updated, {
    mode: before.mode & 0o7777,
    unchanged: () => {
      const now = lstatSync(path);
      return now.isFile() && sameFile(before, now);
    },
  });
  if (!written.ok) {
    return refused(written.reason === "changed_meanwhile" ? "changed_meanwhile" : "write_failed");
  }
  return { kind: "inserted" };
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
