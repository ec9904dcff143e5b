import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { isJsonObject, type JsonValue, parseJsonDocument } from "../../protocol/index.ts";
import { MAX_SETTINGS_BYTES } from "./settings-scan.ts";

/**
 * Why `claude_inbound_setting` left the user `settings.json` alone (claude-code.md §4): `no_directory`
 * (the file is missing and so is its folder: nothing is created), `symlink` (the file is a
 * symbolic link: never followed), `not_regular`, `not_owned` (owned by another user),
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

function readNoFollow(path: string, before: Stats): Uint8Array | InboundSettingRefusal {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return "unreadable";
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return "not_regular";
    if (info.ino !== before.ino || info.dev !== before.dev) return "changed_meanwhile";
    const cap = MAX_SETTINGS_BYTES;
    const buffer = Buffer.alloc(cap + 1);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, length);
      if (n === 0) break;
      length += n;
    }
    if (length > cap) return "too_large";
    return new Uint8Array(buffer.subarray(0, length));
  } catch {
    return "unreadable";
  } finally {
    closeSync(fd);
  }
}

/** Writes `bytes` to a fresh sibling temp file with exactly `mode`; returns its path. */
function writeTemp(dir: string, bytes: Uint8Array, mode: number): string {
  const temp = join(dir, `.settings.json.brigade-${process.pid}-${randomBytes(6).toString("hex")}`);
  const fd = openSync(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  try {
    fchmodSync(fd, mode);
    let at = 0;
    while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  return temp;
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/**
 * The `claude_inbound_setting` option (claude-code.md §4): makes the **user** `settings.json`
 * (`<claudeConfigDir>/settings.json`) say `"crossSessionInbound": "accept"` when it says nothing,
 * so a session that bypasses permission prompts does not hold every post for a dialog. The caller
 * runs it only in such a session (`permission_mode` `bypassPermissions`, which only
 * UserPromptSubmit reports) and only while the option is on.
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
  const original = readNoFollow(path, before);
  if (typeof original === "string") return refused(original);
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
  let temp: string;
  try {
    temp = writeTemp(claudeConfigDir, updated, before.mode & 0o7777);
  } catch {
    return refused("write_failed");
  }
  try {
    const now = lstatSync(path);
    if (!now.isFile() || !sameFile(before, now)) {
      rmSync(temp, { force: true });
      return refused("changed_meanwhile");
    }
    renameSync(temp, path);
    return { kind: "inserted" };
  } catch {
    rmSync(temp, { force: true });
    return refused("write_failed");
  }
}

function createSettings(dir: string, path: string): InboundSettingOutcome {
  try {
    if (!statSync(dir).isDirectory()) return refused("no_directory");
  } catch {
    return refused("no_directory");
  }
  let temp: string;
  try {
    temp = writeTemp(dir, encoder.encode(NEW_FILE), 0o600);
  } catch {
    return refused("write_failed");
  }
  try {
    // link, not rename: never replaces a settings.json that appeared meanwhile
    linkSync(temp, path);
    return { kind: "created" };
  } catch (error) {
    return refused(
      (error as NodeJS.ErrnoException).code === "EEXIST" ? "changed_meanwhile" : "write_failed",
    );
  } finally {
    rmSync(temp, { force: true });
  }
}
