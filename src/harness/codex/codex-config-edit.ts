import { lstatSync, type Stats, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import {
  createFileExclusive,
  type LocalFileRefusal,
  readLocalFile,
  writeFileAtomic,
} from "../../local-files/index.ts";
import { CODEX_BLOCK_BEGIN, codexClash } from "./codex-block.ts";
import { CODEX_CONFIG_FILE } from "./codex-facts.ts";
import { scanTomlKeys, type TomlDefinition } from "./toml-key-scan.ts";

/**
 * Why Codex's `config.toml` was left alone by {@link insertCodexBlock} or {@link removeCodexBlock}
 * (docs/49-codex.md): `no_directory` (no Codex home folder: Codex has not run yet), `symlink`,
 * `not_regular`, `not_owned`, `too_large` (over 1 MiB), `unreadable`, `not_utf8`, `not_toml`
 * (a line the key scan cannot follow), `server_present` (something defines `mcp_servers.brigade`
 * already), `tables_inline` (a table the block adds to is written inline, or a hooked event is a
 * plain table),
 * `verify_failed` (the result does not define exactly the original keys plus the block's — a bug
 * guard), `changed_meanwhile`, `write_failed`.
 *
 * @example CODEX_CONFIG_REFUSALS.includes("server_present") === true
 */
export const CODEX_CONFIG_REFUSALS = [
  "no_directory",
  "symlink",
  "not_regular",
  "not_owned",
  "too_large",
  "unreadable",
  "not_utf8",
  "not_toml",
  "server_present",
  "tables_inline",
  "verify_failed",
  "changed_meanwhile",
  "write_failed",
] as const;

/** One {@link CODEX_CONFIG_REFUSALS} token. */
export type CodexConfigRefusal = (typeof CODEX_CONFIG_REFUSALS)[number];

/** Largest `config.toml` read, bytes. */
export const MAX_CODEX_CONFIG_BYTES = 1_048_576;

/** What {@link insertCodexBlock} did: `inserted` at the end of an existing file, or `created` it. */
export type CodexBlockInsert =
  | {
      readonly kind: "inserted" | "created";
      readonly file: string;
      /** The exact text added: the separator before the block (`""`, `"\n"` or `"\n\n"`), then the block. */
      readonly inserted: string;
    }
  | { readonly kind: "refused"; readonly reason: CodexConfigRefusal };

/** What {@link removeCodexBlock} did. */
export type CodexBlockUndo =
  | {
      /**
       * `removed` (the inserted text taken out, every other byte kept), `file_removed` (the file
       * Brigade created, unchanged since, deleted), `already_absent` (neither the text nor the
       * block's first line is there), `changed` (the block's first line is there but not the text
       * inserted: the person edited it; left as it is).
       */
      readonly kind: "removed" | "file_removed" | "already_absent" | "changed";
    }
  | { readonly kind: "refused"; readonly reason: CodexConfigRefusal };

const READ_REFUSAL: Readonly<Record<LocalFileRefusal, CodexConfigRefusal>> = {
  missing: "unreadable",
  symlink: "unreadable",
  not_regular: "not_regular",
  not_owned: "not_owned",
  not_private: "unreadable",
  changed_meanwhile: "changed_meanwhile",
  too_large: "too_large",
  unreadable: "unreadable",
};

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function refused(reason: CodexConfigRefusal): { kind: "refused"; reason: CodexConfigRefusal } {
  return { kind: "refused", reason };
}

type ConfigRead =
  | { readonly ok: true; readonly before: Stats; readonly text: string }
  | { readonly ok: false; readonly missing: boolean; readonly reason: CodexConfigRefusal };

/** Reads `path` as both edits accept it: a regular file of ours (never a symlink), ≤ 1 MiB, UTF-8. */
function readConfig(path: string, uid: number): ConfigRead {
  const no = (reason: CodexConfigRefusal, missing = false): ConfigRead => ({
    ok: false,
    missing,
    reason,
  });
  let before: Stats;
  try {
    before = lstatSync(path);
  } catch (error) {
    return no("unreadable", (error as NodeJS.ErrnoException).code === "ENOENT");
  }
  if (before.isSymbolicLink()) return no("symlink");
  if (!before.isFile()) return no("not_regular");
  if (uid >= 0 && before.uid !== uid) return no("not_owned");
  if (before.size > MAX_CODEX_CONFIG_BYTES) return no("too_large");
  const read = readLocalFile(path, { maxBytes: MAX_CODEX_CONFIG_BYTES, sameAs: before });
  if (!read.ok) return no(READ_REFUSAL[read.reason]);
  try {
    return { ok: true, before, text: utf8.decode(read.bytes) };
  } catch {
    return no("not_utf8");
  }
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/** Writes `text` over the file read as `read` (its own mode), only if it did not change meanwhile. */
function replaceConfig(
  path: string,
  read: Extract<ConfigRead, { ok: true }>,
  text: string,
): CodexConfigRefusal | undefined {
  const written = writeFileAtomic(path, text, {
    mode: read.before.mode & 0o7777,
    unchanged: () => {
      const now = lstatSync(path);
      return now.isFile() && sameFile(read.before, now);
    },
  });
  if (written.ok) return undefined;
  return written.reason === "changed_meanwhile" ? "changed_meanwhile" : "write_failed";
}

const sameDefinitions = (a: readonly TomlDefinition[], b: readonly TomlDefinition[]): boolean =>
  JSON.stringify(a) === JSON.stringify(b);

/** The separator that puts the block after a blank line: none for an empty file. */
function separatorAfter(text: string): string {
  if (text === "" || text.endsWith("\n\n")) return "";
  return text.endsWith("\n") ? "\n" : "\n\n";
}

/**
 * Appends `block` (`codexBlock`) to `<codexHome>/config.toml`, every other byte kept: after a
 * blank line, at the end, where its tables and array-of-tables groups cannot change what the
 * file's own lines mean. Refused, nothing written, when the file is not a regular file of ours
 * (never a symlink), is over 1 MiB, is not UTF-8, has a line the key scan cannot follow, or clashes
 * with the block (`codexClash`); the result is scanned again and must define exactly the file's
 * keys and then the block's (`verify_failed` otherwise), and is written to a sibling temporary
 * with the file's own mode and renamed over it only if the file did not change meanwhile. A missing
 * file is created (0600, exclusively) when the folder exists; no folder → `no_directory`. Never
 * throws.
 *
 * @example insertCodexBlock("/home/dana/.codex", 1000, block) // { kind: "inserted", inserted: "\n" + block, … }
 */
export function insertCodexBlock(codexHome: string, uid: number, block: string): CodexBlockInsert {
  const file = join(codexHome, CODEX_CONFIG_FILE);
  const blockScan = scanTomlKeys(block);
  if (!blockScan.ok) return refused("verify_failed");
  const read = readConfig(file, uid);
  if (!read.ok) {
    if (!read.missing) return refused(read.reason);
    try {
      if (!statSync(codexHome).isDirectory()) return refused("no_directory");
    } catch {
      return refused("no_directory");
    }
    const created = createFileExclusive(file, block, { mode: 0o600 });
    if (!created.ok)
      return refused(created.reason === "exists" ? "changed_meanwhile" : "write_failed");
    return { kind: "created", file, inserted: block };
  }
  const scan = scanTomlKeys(read.text);
  if (!scan.ok) return refused("not_toml");
  const clash = codexClash(scan.definitions);
  if (clash !== undefined) return refused(clash);
  const inserted = `${separatorAfter(read.text)}${block}`;
  const updated = `${read.text}${inserted}`;
  const again = scanTomlKeys(updated);
  if (
    !again.ok ||
    !sameDefinitions(again.definitions, [...scan.definitions, ...blockScan.definitions])
  ) {
    return refused("verify_failed");
  }
  const why = replaceConfig(file, read, updated);
  return why === undefined ? { kind: "inserted", file, inserted } : refused(why);
}

/**
 * Takes out of `<codexHome>/config.toml` exactly the text {@link insertCodexBlock} added
 * (`inserted`), wherever it now is (Codex appends its own tables after it, such as the trust it
 * records for hooks), every other byte kept, written like the insertion. A file Brigade created
 * (`created`) that holds nothing else is deleted. When the text is not there but the block's first
 * line is, the person changed the block: `changed`, left as it is. The same file checks as the
 * insertion. Never throws.
 *
 * @example removeCodexBlock("/home/dana/.codex", 1000, { inserted, created: false }) // { kind: "removed" }
 */
export function removeCodexBlock(
  codexHome: string,
  uid: number,
  change: { readonly inserted: string; readonly created: boolean },
): CodexBlockUndo {
  const file = join(codexHome, CODEX_CONFIG_FILE);
  const read = readConfig(file, uid);
  if (!read.ok) return read.missing ? { kind: "already_absent" } : refused(read.reason);
  if (change.created && read.text === change.inserted) {
    try {
      const now = lstatSync(file);
      if (!now.isFile() || !sameFile(read.before, now)) return refused("changed_meanwhile");
      unlinkSync(file);
      return { kind: "file_removed" };
    } catch {
      return refused("write_failed");
    }
  }
  const at = read.text.indexOf(change.inserted);
  if (at < 0 || change.inserted === "") {
    return read.text.includes(CODEX_BLOCK_BEGIN) ? { kind: "changed" } : { kind: "already_absent" };
  }
  const updated = read.text.slice(0, at) + read.text.slice(at + change.inserted.length);
  const why = replaceConfig(file, read, updated);
  return why === undefined ? { kind: "removed" } : refused(why);
}
