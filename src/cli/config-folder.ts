import type { ConfigDirSource } from "../adapters/http/index.ts";
import { harnessConfigLocation } from "../harness/adapter/index.ts";
import { checkOwnFolder, type OwnFolderRefusal } from "../local-files/index.ts";
import type { CliIo } from "./cli-io.ts";

/**
 * The configuration folder of a person's command (`brigade team create|join|leave`, `brigade
 * doctor --fix`, `brigade uninstall`): where it is, and whether it can safely hold what Brigade
 * keeps there.
 */

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
 * @example const dir = configDirOf(io, "team join"); if (typeof dir !== "string") return dir.status;
 */
export function configDirOf(io: CliIo, command: string): string | { readonly status: number } {
  const fail = (status: number, line: string) => {
    io.stderr(`brigade ${command}: ${line}\n`);
    return { status };
  };
  const location = harnessConfigLocation(io.env, { relative: "refuse" });
  if (!location.ok && location.reason === "variable_relative") {
    return fail(2, "BRIGADE_CONFIG_DIR must be an absolute path (or unset for the default folder)");
  }
  if (!location.ok) {
    return fail(11, "no configuration folder: set HOME (or XDG_CONFIG_HOME) to an absolute path");
  }
  const explicit = location.source === "variable";
  const checked = checkOwnFolder(location.dir, { createParents: !explicit });
  if (checked.ok) return location.dir;
  io.stderr(`brigade ${command}: ${FOLDER_PROBLEMS[checked.reason]}\n`);
  return fail(11, `fix: ${folderFix(checked.reason, SHELL_NAMES[location.source], explicit)}`);
}
