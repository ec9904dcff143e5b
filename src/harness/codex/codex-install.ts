import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { BrigadeCommand, ClientInstallOutcome } from "../host-session/index.ts";
import { codexBlock } from "./codex-block.ts";
import { type CodexConfigChange, readCodexChanges, writeCodexChanges } from "./codex-changes.ts";
import {
  type CodexBlockUndo,
  type CodexConfigRefusal,
  insertCodexBlock,
  removeCodexBlock,
} from "./codex-config-edit.ts";
import { CODEX_CONFIG_FILE, CODEX_HOME_VARIABLE } from "./codex-facts.ts";

/**
 * The Codex home the person's Codex reads: `CODEX_HOME` when set (it must be absolute), else
 * `<HOME>/.codex`; `undefined` when the one that decides is not absolute.
 *
 * @example codexHomeOf({ HOME: "/home/dana" }) === "/home/dana/.codex"
 */
export function codexHomeOf(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const named = env[CODEX_HOME_VARIABLE];
  if (named !== undefined && named !== "") return isAbsolute(named) ? named : undefined;
  const home = env.HOME ?? "";
  return isAbsolute(home) ? join(home, ".codex") : undefined;
}

/** What each refusal of the edit tells the person, after the file's path. */
const REFUSAL_LINES: Readonly<Record<CodexConfigRefusal, string>> = {
  no_directory: "the folder does not exist: start codex once (it makes it), then run this again",
  symlink: "it is a symbolic link: Brigade does not follow it",
  not_regular: "it is not a regular file",
  not_owned: "it belongs to another user",
  too_large: "it is over 1 MiB",
  unreadable: "it cannot be read",
  not_utf8: "it is not UTF-8 text",
  not_toml: "a line of it is not TOML Brigade can follow",
  server_present:
    "it already names an MCP server [mcp_servers.brigade]: remove that entry, then run this again",
  tables_inline:
    "it writes mcp_servers, hooks or a hooked event (SessionStart, UserPromptSubmit, PostToolUse, Stop, SessionEnd) as an inline value or a plain table, which Brigade's [mcp_servers.brigade] and [[hooks.<Event>]] tables cannot extend",
  verify_failed: "the result would not have been the file plus Brigade's block (a Brigade bug)",
  changed_meanwhile: "it changed while Brigade worked: run this again",
  write_failed: "it cannot be written",
};

/** The lines that tell the person what `brigade install codex` wrote and what is left to them. */
function installedLines(file: string, how: "added" | "created" | "updated"): string[] {
  return [
    `${file}: ${how === "created" ? "created it with" : how === "updated" ? "brought up to date" : "added"} Brigade's block (from the line "# Brigade: …"):`,
    "  [mcp_servers.brigade]    brigade mcp: the tools send, inbox and who, approved without asking",
    "  [[hooks.SessionStart]], [[hooks.UserPromptSubmit]], [[hooks.PostToolUse]], [[hooks.Stop]], [[hooks.SessionEnd]]",
    "                           brigade host-hook codex …: connect the session, say what waits, keep it online, close it",
    "Codex runs a new hook only once you trust it: start codex, type /hooks and trust the five Brigade hooks.",
    "A Codex session in a folder your team binds (.brigade.json) then joins the team at its start.",
    "Undo: brigade uninstall codex",
  ];
}

/**
 * `brigade install codex` (docs/49-codex.md), once the person said yes in their own terminal:
 * adds Brigade's block (`codexBlock(command)`) to `config.toml` of {@link codexHomeOf}, every other
 * byte kept (`insertCodexBlock`), and records exactly the text added in `configDir`
 * (`codex-config-changes.json`) so `brigade uninstall codex` can take it out. Run again with the
 * same block: nothing changes; with another (a moved checkout): the old block is taken out and the
 * new one added. A refusal names the file and why, and writes nothing.
 *
 * @example installCodex(process.env, { node: process.execPath, cli }, configDir, uid, new Date())
 */
export function installCodex(
  env: Readonly<Record<string, string | undefined>>,
  command: BrigadeCommand,
  configDir: string,
  uid: number,
  now: Date,
): ClientInstallOutcome {
  const home = codexHomeOf(env);
  if (home === undefined) {
    return {
      ok: false,
      code: "no_home",
      line: "CODEX_HOME (or HOME) is not an absolute folder: nothing written",
    };
  }
  const file = join(home, CODEX_CONFIG_FILE);
  const recorded = readCodexChanges(configDir, uid);
  if (!recorded.ok) {
    return {
      ok: false,
      code: "record_unreadable",
      line: `the record of what Brigade changed in Codex's configuration cannot be read (${recorded.reason}): nothing written`,
    };
  }
  const block = codexBlock(command);
  const earlier = recorded.changes.filter((change) => change.file === file);
  if (
    earlier.some((change) => change.inserted.endsWith(block) && fileHolds(file, change.inserted))
  ) {
    return { ok: true, lines: [`${file}: Brigade's block is there already: nothing changed.`] };
  }
  for (const change of earlier) {
    const undo = removeCodexBlock(home, uid, change);
    if (undo.kind === "changed") {
      return {
        ok: false,
        code: "block_changed",
        line: `${file}: ${UNDONE.changed}; nothing written`,
      };
    }
    if (undo.kind === "refused") return refusal(file, undo.reason);
  }
  const updated = earlier.length > 0;
  const others = recorded.changes.filter((change) => change.file !== file);
  const inserted = insertCodexBlock(home, uid, block);
  if (inserted.kind === "refused") {
    // an earlier block taken out above is forgotten with its record entry: the file no longer has it
    writeCodexChanges(configDir, others);
    return refusal(file, inserted.reason);
  }
  const change: CodexConfigChange = {
    file,
    inserted: inserted.inserted,
    created: inserted.kind === "created" || earlier.some((c) => c.created),
    at: now.toISOString(),
  };
  if (!writeCodexChanges(configDir, [...others, change])) {
    removeCodexBlock(home, uid, change);
    return {
      ok: false,
      code: "record_unwritable",
      line: `the record of the change cannot be written in ${configDir}: ${file} is left as it was`,
    };
  }
  const how = updated ? "updated" : inserted.kind === "created" ? "created" : "added";
  return { ok: true, lines: installedLines(file, how) };
}

/** Whether `file` holds `text` (a read failure: no; the edit's own checks then decide). */
function fileHolds(file: string, text: string): boolean {
  try {
    return readFileSync(file, "utf8").includes(text);
  } catch {
    return false;
  }
}

function refusal(file: string, reason: CodexConfigRefusal): ClientInstallOutcome {
  return {
    ok: false,
    code: reason === "write_failed" ? "write_failed" : "config_refused",
    line: `${file}: ${REFUSAL_LINES[reason]} (${reason}); nothing written`,
  };
}

/** What each outcome of the undo says, after the file's path. */
const UNDONE: Readonly<Record<Exclude<CodexBlockUndo["kind"], "refused">, string>> = {
  removed: "took Brigade's block out, every other line as it is",
  file_removed: "removed the file brigade install codex had created",
  already_absent: "Brigade's block is gone already: nothing to take out",
  changed:
    'Brigade\'s block was edited since: left as it is (remove the lines from "# Brigade: …" down to the SessionEnd hook running host-hook codex yourself)',
};

/**
 * `brigade uninstall codex`: for every change recorded in `configDir`, takes out exactly the text
 * added (`removeCodexBlock`, wherever it now is in the file) and forgets the change; one that could
 * not be put back stays recorded and the outcome is a refusal naming it. Codex's own records (the
 * trust `/hooks` wrote for Brigade's hooks) are Codex's and stay.
 *
 * @example uninstallCodex(configDir, uid)
 */
export function uninstallCodex(configDir: string, uid: number): ClientInstallOutcome {
  const recorded = readCodexChanges(configDir, uid);
  if (!recorded.ok) {
    return {
      ok: false,
      code: "record_unreadable",
      line: `the record of what Brigade changed in Codex's configuration cannot be read (${recorded.reason}): nothing changed`,
    };
  }
  if (recorded.changes.length === 0) {
    return { ok: true, lines: ["Brigade changed no Codex configuration: nothing to take out."] };
  }
  const lines: string[] = [];
  const left: CodexConfigChange[] = [];
  let failed: Extract<ClientInstallOutcome, { ok: false }> | undefined;
  for (const change of recorded.changes) {
    const home = join(change.file, "..");
    const undo = removeCodexBlock(home, uid, change);
    if (undo.kind === "refused") {
      left.push(change);
      failed = {
        ok: false,
        code: undo.reason === "write_failed" ? "write_failed" : "config_refused",
        line: `${change.file}: could not take Brigade's block out: ${REFUSAL_LINES[undo.reason]} (${undo.reason})`,
      };
      continue;
    }
    lines.push(`${change.file}: ${UNDONE[undo.kind]}.`);
  }
  if (!writeCodexChanges(configDir, left)) {
    return {
      ok: false,
      code: "record_unwritable",
      line: "the record of the changes cannot be updated",
    };
  }
  if (failed !== undefined) return failed;
  return { ok: true, lines };
}
