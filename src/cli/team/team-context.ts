import { resolve } from "node:path";
import { type ConfigDirSource, normalizeServerUrl } from "../../adapters/http/index.ts";
import { harnessConfigDir, harnessConfigLocation } from "../../harness/adapter/index.ts";
import {
  type ConsentRecord,
  deleteConsent,
  readConsent,
  type TeamBindingLookup,
  writeConsent,
} from "../../harness/binding/index.ts";
import { insideClaudeCode } from "../../harness/claude-code/index.ts";
import { checkOwnFolder, type OwnFolderRefusal } from "../../local-files/index.ts";
import { type CliIo, CliUsageError } from "../cli-io.ts";
import { type Failed, fail, say } from "./team-report.ts";

/**
 * What `brigade team …` takes from its surroundings: whether it runs inside a Claude Code
 * session, `BRIGADE_SERVER`, the configuration folder, and the checkout's `.brigade.json`.
 */

/** The refusal of a person's act (every subcommand but `members`) inside a session. */
export const IN_SESSION_LINE =
  "this is a person's act: run it in your own terminal, not from a Claude Code session (CLAUDE_PID is set)";

/**
 * True inside a Claude Code session (`CLAUDE_PID` set and non-empty).
 *
 * @example inSession({ ...io, env: { CLAUDE_PID: "4242" } }) === true
 */
export function inSession(io: CliIo): boolean {
  return insideClaudeCode(io.env);
}

/**
 * `BRIGADE_SERVER`, outside a session only (an inherited `BRIGADE_*` is ignored inside one);
 * `undefined` when unset or empty.
 *
 * @throws CliUsageError `BRIGADE_SERVER is not an http(s) URL`.
 * @example envServer(io) // "http://127.0.0.1:7777"
 */
export function envServer(io: CliIo): string | undefined {
  if (inSession(io)) return undefined;
  const text = io.env.BRIGADE_SERVER;
  if (text === undefined || text === "") return undefined;
  const server = normalizeServerUrl(text);
  if (server === undefined) throw new CliUsageError("BRIGADE_SERVER is not an http(s) URL");
  return server;
}

/** The problem line for each reason the configuration folder is refused. */
const FOLDER_PROBLEMS: Readonly<Record<OwnFolderRefusal, string>> = {
  parent_missing:
    "the configuration folder's parent folder does not exist (only the last level is created)",
  not_a_folder: "the configuration folder is not a folder",
  foreign_owner: "the configuration folder belongs to another user",
  writable_by_others:
    "the configuration folder is writable by other users, who could replace what it holds",
  io_error: "the configuration folder cannot be examined",
};

/** How the person's shell names the configuration folder, by where it came from. */
const SHELL_NAMES: Readonly<Record<ConfigDirSource, string>> = {
  variable: '"$BRIGADE_CONFIG_DIR"',
  xdg: '"$XDG_CONFIG_HOME/brigade"',
  home: "~/.config/brigade",
};

/** The fix line for each reason, `dir` being how the person's shell names the folder. */
function folderFix(reason: OwnFolderRefusal, dir: string, explicit: boolean): string {
  const elsewhere = explicit ? "set BRIGADE_CONFIG_DIR to a folder of your own" : "check HOME";
  switch (reason) {
    case "parent_missing":
      return `mkdir -p -m 700 ${dir} (or correct the path)`;
    case "writable_by_others":
      return `chmod 700 ${dir} (and check nothing in it was changed by someone else), or ${elsewhere}`;
    case "foreign_owner":
    case "not_a_folder":
    case "io_error":
      return elsewhere;
  }
}

/**
 * The configuration folder, or the exit status already reported: 2 when `BRIGADE_CONFIG_DIR` is
 * set outside a session but not absolute (the folder it would mean depends on where the command
 * runs, and silently using the default would put the credential where the person did not ask),
 * 11 when HOME (or XDG_CONFIG_HOME) gives none, and 11 when the folder cannot safely hold a
 * credential (`checkOwnFolder`: another user's, writable by others, not a folder, or — for
 * `BRIGADE_CONFIG_DIR` — a missing parent: only its last level is created, 0700, so a typo
 * cannot plant a tree of folders; the default folder gets its parents as usual). The problem and
 * a fix line are printed, naming the variable, never the path.
 *
 * @example const dir = configDirOf(io, "join"); if (typeof dir !== "string") return dir.status;
 */
export function configDirOf(io: CliIo, sub: string): string | Failed {
  const location = harnessConfigLocation(io.env, { relative: "refuse" });
  if (!location.ok && location.reason === "variable_relative") {
    return fail(
      io,
      sub,
      2,
      "BRIGADE_CONFIG_DIR must be an absolute path (or unset for the default folder)",
    );
  }
  if (!location.ok) {
    return fail(
      io,
      sub,
      11,
      "no configuration folder: set HOME (or XDG_CONFIG_HOME) to an absolute path",
    );
  }
  const explicit = location.source === "variable";
  const checked = checkOwnFolder(location.dir, { createParents: !explicit });
  if (checked.ok) return location.dir;
  say(io, sub, FOLDER_PROBLEMS[checked.reason]);
  return fail(
    io,
    sub,
    11,
    `fix: ${folderFix(checked.reason, SHELL_NAMES[location.source], explicit)}`,
  );
}

const BINDING_PROBLEM: Readonly<Record<string, string>> = {
  binding_invalid:
    "this checkout's .brigade.json is not a valid team binding; fix or remove it first",
  binding_unreadable:
    "this checkout's .brigade.json cannot be read (a symlink or not a regular file); replace it first",
};

/**
 * Refuses a create/join where a broken `.brigade.json` stands (it is never silently ignored):
 * the exit status 2 already reported, or `undefined` when the lookup found one or none.
 *
 * @example const problem = bindingProblem(io, "join", found); if (problem) return problem.status;
 */
export function bindingProblem(
  io: CliIo,
  sub: string,
  found: TeamBindingLookup,
): Failed | undefined {
  if (found.ok || found.reason === "no_binding") return undefined;
  return fail(
    io,
    sub,
    2,
    BINDING_PROBLEM[found.reason] ?? "this checkout's .brigade.json is unusable",
  );
}

/**
 * The folder a Claude Code session looks in when the plugin option `config_dir` is unset:
 * `$XDG_CONFIG_HOME/brigade`, else `~/.config/brigade` (sessions ignore `BRIGADE_CONFIG_DIR`).
 *
 * @example sessionDefaultConfigDir(io) // "/home/dana/.config/brigade"
 */
export function sessionDefaultConfigDir(io: CliIo): string | undefined {
  return harnessConfigDir(io.env, { asSession: true });
}

/**
 * Records this checkout's consent in `configDir` and, when that is not the folder sessions use by
 * default (the person set `BRIGADE_CONFIG_DIR`), a second record there whose `config_dir` names
 * `configDir`: so the one configuration folder the person chose holds the credential, and sessions
 * — which ignore every inherited `BRIGADE_*` — still find the join (docs/44-team-binding.md, "One
 * configuration folder rule"). Returns whether the second record was written.
 *
 * @throws PrivateFileError (or another write error) when a record cannot be written privately.
 * @example recordConsent(io, "/srv/brigade-config", consentRecord({ ... }));
 */
export function recordConsent(io: CliIo, configDir: string, record: ConsentRecord): boolean {
  writeConsent(configDir, record);
  const sessions = sessionDefaultConfigDir(io);
  if (sessions === undefined || resolve(sessions) === resolve(configDir)) return false;
  writeConsent(sessions, { ...record, config_dir: configDir });
  return true;
}

/**
 * Deletes this checkout's consent in `configDir`, and the default folder's record when it points
 * to `configDir` (written by {@link recordConsent}); a record there for another folder is kept.
 *
 * @throws Error from the file system for any failure but a missing file.
 * @example forgetConsent(io, configDir, "/home/dana/src/api");
 */
export function forgetConsent(io: CliIo, configDir: string, checkout: string): void {
  deleteConsent(configDir, checkout);
  const sessions = sessionDefaultConfigDir(io);
  if (sessions === undefined || resolve(sessions) === resolve(configDir)) return;
  const pointer = readConsent(sessions, checkout);
  if (pointer.ok && pointer.record.config_dir === configDir) deleteConsent(sessions, checkout);
}

/** The line `create` and `join` add when the sessions' default folder got a pointer record. */
export const CONSENT_POINTER_LINE =
  "BRIGADE_CONFIG_DIR is set: the credential stays in that folder, and a consent record in the default folder ($XDG_CONFIG_HOME/brigade, else ~/.config/brigade) points sessions to it. If you set the plugin option config_dir, set it to the same folder.";
