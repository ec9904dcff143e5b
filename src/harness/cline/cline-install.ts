import { lstatSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { writeFileAtomic } from "../../local-files/index.ts";
import type { BrigadeCommand, ClientInstallOutcome } from "../host-session/index.ts";
import { type ClineSettingsChange, readClineChanges, writeClineChanges } from "./cline-changes.ts";
import { CLINE_DIR_VARIABLE, CLINE_MCP_SETTINGS_FILE } from "./cline-facts.ts";
import { clineHookFiles, clineHookOwnership, clineHooksDir } from "./cline-hooks-folder.ts";
import {
  addClineServer,
  type ClineServerEntry,
  type ClineSettingsRefusal,
  clineUndo,
  MAX_CLINE_SETTINGS_BYTES,
} from "./cline-settings-edit.ts";

type Env = Readonly<Record<string, string | undefined>>;
type Refusal = Extract<ClientInstallOutcome, { ok: false }>;

/** The variables that choose Brigade's folders and that Cline does not pass to an MCP server. */
const FOLDER_VARIABLES = ["XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"] as const;

/** The tools Cline runs without asking (the person's install is their yes): read-only ones. */
const AUTO_APPROVED = ["inbox", "who"] as const;

/**
 * Cline's folder: `$CLINE_DIR` when set (it must be absolute), else `<HOME>/.cline`; `undefined`
 * when the one that decides is not absolute.
 *
 * @example clineDirOf({ HOME: "/home/dana" }) === "/home/dana/.cline"
 */
export function clineDirOf(env: Env): string | undefined {
  const named = env[CLINE_DIR_VARIABLE] ?? "";
  if (named !== "") return isAbsolute(named) ? named : undefined;
  const home = env.HOME ?? "";
  return isAbsolute(home) ? join(home, ".cline") : undefined;
}

/**
 * Brigade's entry in Cline's MCP settings: `<node> <cli> mcp` over stdio, `inbox` and `who`
 * approved without asking (`send` stays under Cline's own approval), and in `env` the
 * `XDG_CONFIG_HOME`, `XDG_STATE_HOME`, `XDG_RUNTIME_DIR` of the installing terminal that are set
 * and absolute: Cline passes an MCP server only `HOME`, `PATH` and a few more
 * (`CLINE_MCP_SETTINGS_FILE`), and `brigade mcp` must find the folders the hooks wrote. Pure.
 *
 * @example clineServerEntry({ node: "/usr/bin/node", cli: "/w/cli.js" }, {}).args // ["/w/cli.js", "mcp"]
 */
export function clineServerEntry(command: BrigadeCommand, env: Env): ClineServerEntry {
  const folders: Record<string, string> = {};
  for (const name of FOLDER_VARIABLES) {
    const value = env[name] ?? "";
    if (isAbsolute(value)) folders[name] = value;
  }
  return {
    command: command.node,
    args: [command.cli, "mcp"],
    type: "stdio",
    ...(Object.keys(folders).length > 0 ? { env: folders } : {}),
    autoApprove: [...AUTO_APPROVED],
    disabled: false,
  };
}

const SETTINGS_REFUSALS: Readonly<Record<ClineSettingsRefusal, string>> = {
  not_json: "it is not a JSON object",
  servers_not_object: "its mcpServers is not an object",
  server_present:
    'it already names an MCP server "brigade": remove that entry, then run this again',
  symlink: "it is a symbolic link: Brigade does not follow it",
  not_regular: "it is not a regular file",
  too_large: "it is over 1 MiB",
  unreadable: "it cannot be read",
};

/** The settings file's text, `undefined` when there is none, or why it cannot be edited. */
function readSettings(
  file: string,
):
  | { readonly ok: true; readonly text: string | undefined; readonly mode: number }
  | { readonly ok: false; readonly reason: keyof typeof SETTINGS_REFUSALS } {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      return { ok: true, text: undefined, mode: 0o600 };
    }
    return { ok: false, reason: "unreadable" };
  }
  if (stat.isSymbolicLink()) return { ok: false, reason: "symlink" };
  if (!stat.isFile()) return { ok: false, reason: "not_regular" };
  if (stat.size > MAX_CLINE_SETTINGS_BYTES) return { ok: false, reason: "too_large" };
  try {
    return { ok: true, text: readFileSync(file, "utf8"), mode: stat.mode & 0o777 };
  } catch {
    return { ok: false, reason: "unreadable" };
  }
}

function settingsRefusal(file: string, reason: keyof typeof SETTINGS_REFUSALS): Refusal {
  return {
    ok: false,
    code: "config_refused",
    line: `${file}: ${SETTINGS_REFUSALS[reason]} (${reason}); nothing written`,
  };
}

/** Writes `text` at `file` (its folder made 0755 first), keeping `mode`; a refusal or `undefined`. */
function writeSettings(file: string, text: string, mode: number): Refusal | undefined {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o755 });
  } catch {
    return { ok: false, code: "write_failed", line: `${dirname(file)} cannot be created` };
  }
  const written = writeFileAtomic(file, text, { mode });
  if (written.ok) return undefined;
  return { ok: false, code: "write_failed", line: `${file} cannot be written (${written.reason})` };
}

/**
 * Takes one recorded change out of its settings file (`clineUndo`): the bytes from before put
 * back when the file is as Brigade left it (the file removed when Brigade had created it), only
 * Brigade's entry taken out when Cline or the person changed other members since. What it did,
 * as a line, or a refusal (`block_changed` when Brigade's entry itself was edited).
 */
function undoChange(change: ClineSettingsChange): { line: string } | Refusal {
  const read = readSettings(change.file);
  if (!read.ok) {
    return {
      ok: false,
      code: "config_refused",
      line: `${change.file}: could not take Brigade's entry out: ${SETTINGS_REFUSALS[read.reason]} (${read.reason})`,
    };
  }
  if (read.text === undefined)
    return { line: `${change.file}: gone already: nothing to take out.` };
  const undo = clineUndo(read.text, change.after);
  if (undo.kind === "absent") {
    return { line: `${change.file}: Brigade's entry is gone already: nothing to take out.` };
  }
  if (undo.kind === "changed") {
    return {
      ok: false,
      code: "block_changed",
      line: `${change.file}: Brigade's "brigade" server entry was edited since: left as it is (remove it yourself)`,
    };
  }
  if (undo.kind === "restore" && change.before === null) {
    try {
      rmSync(change.file);
    } catch {
      return { ok: false, code: "write_failed", line: `${change.file} cannot be removed` };
    }
    return { line: `${change.file}: removed the file brigade install cline had created.` };
  }
  const text = undo.kind === "restore" ? (change.before as string) : undo.text;
  const failed = writeSettings(change.file, text, read.mode);
  if (failed !== undefined) return failed;
  return {
    line:
      undo.kind === "restore"
        ? `${change.file}: put back as it was before brigade install cline.`
        : `${change.file}: took Brigade's "brigade" server out; the other servers as Cline left them.`,
  };
}

/**
 * `brigade install cline` (docs/49-cline.md "Install"), once the person said yes in their own
 * terminal:
 * 1. the hook files (`clineHookFiles`) into Cline's global hooks folder (`clineHooksDir`), 0755;
 *    a file of that name Brigade did not write refuses everything, `extension_foreign`;
 * 2. Brigade's server (`clineServerEntry`) added to `<cline dir>/data/settings/
 *    cline_mcp_settings.json` (`addClineServer`), its text before and after recorded in
 *    `configDir` (`cline-config-changes.json`) so uninstall puts the bytes back.
 * Run again: an entry recorded earlier is taken out first (a moved checkout), then added anew.
 * A refusal names the file and why.
 *
 * @example installCline(process.env, { node: process.execPath, cli }, configDir, uid, new Date())
 */
export function installCline(
  env: Env,
  command: BrigadeCommand,
  configDir: string,
  uid: number,
  now: Date,
): ClientInstallOutcome {
  const clineDir = clineDirOf(env);
  const hooksDir = clineHooksDir(env);
  if (clineDir === undefined || hooksDir === undefined) {
    return {
      ok: false,
      code: "no_home",
      line: "HOME (or CLINE_DIR) is not an absolute folder: nothing written",
    };
  }
  const hooks = Object.entries(clineHookFiles(command)).map(
    ([name, text]) => [join(hooksDir, name), text] as const,
  );
  const foreign = hooks.find(([path]) => clineHookOwnership(path) === "foreign");
  if (foreign !== undefined) {
    return {
      ok: false,
      code: "extension_foreign",
      line: `${foreign[0]} exists and was not written by Brigade: left as it is, nothing written (Cline runs one file per event in a folder: merge it yourself, or move it to a workspace's .clinerules/hooks)`,
    };
  }
  const file = join(clineDir, ...CLINE_MCP_SETTINGS_FILE);
  const recorded = readClineChanges(configDir, uid);
  if (!recorded.ok) {
    return {
      ok: false,
      code: "record_unreadable",
      line: `the record of what Brigade changed in Cline's settings cannot be read (${recorded.reason}): nothing written`,
    };
  }
  const others = recorded.changes.filter((change) => change.file !== file);
  for (const change of recorded.changes.filter((c) => c.file === file)) {
    const undone = undoChange(change);
    if ("ok" in undone) return undone;
  }
  const read = readSettings(file);
  if (!read.ok) {
    writeClineChanges(configDir, others);
    return settingsRefusal(file, read.reason);
  }
  const added = addClineServer(read.text, clineServerEntry(command, env));
  if (!added.ok) {
    writeClineChanges(configDir, others);
    return settingsRefusal(file, added.reason);
  }
  const change: ClineSettingsChange = {
    file,
    before: read.text ?? null,
    after: added.text,
    at: now.toISOString(),
  };
  if (!writeClineChanges(configDir, [...others, change])) {
    return {
      ok: false,
      code: "record_unwritable",
      line: `the record of the change cannot be written in ${configDir}: ${file} is left as it was`,
    };
  }
  const failed = writeSettings(file, added.text, read.mode);
  if (failed !== undefined) {
    writeClineChanges(configDir, others);
    return failed;
  }
  for (const [path, text] of hooks) {
    try {
      mkdirSync(hooksDir, { recursive: true, mode: 0o755 });
    } catch {
      return { ok: false, code: "write_failed", line: `${hooksDir} cannot be created` };
    }
    const written = writeFileAtomic(path, text, { mode: 0o755 });
    if (!written.ok) {
      return {
        ok: false,
        code: "write_failed",
        line: `${path} cannot be written (${written.reason})`,
      };
    }
  }
  return {
    ok: true,
    lines: [
      `${file}: added the MCP server "brigade" (brigade mcp: the tools inbox, send and who; inbox and who approved without asking)`,
      `${hooksDir}: wrote the hooks ${hooks.map(([path]) => path.slice(hooksDir.length + 1)).join(", ")}`,
      "                           brigade host-hook cline …: connect the task, say what waits, keep it online, close it",
      "A Cline task in a folder your team binds (.brigade.json) then joins the team at its start.",
      "Undo: brigade uninstall cline",
    ],
  };
}

/**
 * `brigade uninstall cline`: removes each of Brigade's hook files from Cline's global hooks
 * folder (a file there Brigade did not write stays), and for every settings change recorded in
 * `configDir` puts the bytes back (`undoChange`) and forgets it; one that could not be put back
 * stays recorded and the outcome is a refusal naming it.
 *
 * @example uninstallCline(process.env, configDir, uid)
 */
export function uninstallCline(env: Env, configDir: string, uid: number): ClientInstallOutcome {
  const hooksDir = clineHooksDir(env);
  if (hooksDir === undefined) {
    return { ok: false, code: "no_home", line: "HOME is not an absolute folder: nothing removed" };
  }
  const recorded = readClineChanges(configDir, uid);
  if (!recorded.ok) {
    return {
      ok: false,
      code: "record_unreadable",
      line: `the record of what Brigade changed in Cline's settings cannot be read (${recorded.reason}): nothing changed`,
    };
  }
  const lines: string[] = [];
  const removed: string[] = [];
  for (const name of Object.keys(clineHookFiles({ node: "", cli: "" }))) {
    const path = join(hooksDir, name);
    if (clineHookOwnership(path) !== "ours") continue;
    try {
      rmSync(path);
    } catch {
      return { ok: false, code: "write_failed", line: `${path} cannot be removed` };
    }
    removed.push(name);
  }
  lines.push(
    removed.length > 0
      ? `${hooksDir}: removed the hooks ${removed.join(", ")}`
      : `${hooksDir}: no Brigade hook there: nothing to remove.`,
  );
  const left: ClineSettingsChange[] = [];
  let failed: Refusal | undefined;
  for (const change of recorded.changes) {
    const undone = undoChange(change);
    if ("ok" in undone) {
      left.push(change);
      failed = undone;
      continue;
    }
    lines.push(undone.line);
  }
  if (!writeClineChanges(configDir, left)) {
    return {
      ok: false,
      code: "record_unwritable",
      line: "the record of the changes cannot be updated",
    };
  }
  return failed ?? { ok: true, lines };
}
