import { dirname } from "node:path";
import { harnessConfigLocation } from "../harness/adapter/index.ts";
import {
  type InboundSettingUndo,
  removeInboundAcceptSetting,
  showsClaudeCodeSession,
} from "../harness/claude-code/index.ts";
import { HOST_CLIENTS } from "../harness/host-clients.ts";
import { resolveStateDir } from "../harness/state/index.ts";
import { currentUid } from "../local-files/index.ts";
import { PERSON_ACT_LINE } from "./claude-settings/ask-person.ts";
import {
  readSettingsChanges,
  type SettingsChange,
  writeSettingsChanges,
} from "./claude-settings/settings-changes.ts";
import type { CliIo } from "./cli-io.ts";
import { configDirOf } from "./config-folder.ts";
import { parseCommandFlags } from "./parse-command-flags.ts";

const HELP = `usage: brigade uninstall            (Claude Code)
       brigade uninstall <client>   (what "brigade install <client>" wrote: docs/49-hosts.md)

Puts back, exactly as it was, what Brigade changed outside its own folders with your yes: the
"crossSessionInbound" member brigade doctor --fix added to Claude Code's user settings (taken
out again, every other byte kept; a settings file Brigade created is removed; a value you set
yourself since is left as it is). Then lists what is left to remove by hand: the Claude Code
plugin, this CLI's link, and Brigade's own folders. Run it in your own terminal.
Exit status: 0 when everything was put back, 1 when something could not be (named), 2 for an
argument or inside a Claude Code session.
`;

/** What each outcome of the undo says, after the file's path. */
const UNDONE: Readonly<Record<Exclude<InboundSettingUndo["kind"], "refused">, string>> = {
  removed: 'took "crossSessionInbound" out again, as it was before brigade doctor --fix',
  file_removed: "removed the file brigade doctor --fix had created",
  already_absent: '"crossSessionInbound" is gone already: nothing to put back',
  changed: '"crossSessionInbound" holds a value set since brigade doctor --fix: left as it is',
};

/** Puts one change back; returns whether it is done with (the record may forget it). */
function undo(io: CliIo, uid: number, change: SettingsChange): boolean {
  const outcome = removeInboundAcceptSetting(dirname(change.file), uid, change.before);
  if (outcome.kind === "refused") {
    io.stderr(
      `brigade uninstall: ${change.file}: could not put it back (${outcome.reason}; docs/errors.md): remove "crossSessionInbound" from it yourself\n`,
    );
    return false;
  }
  io.stdout(`${change.file}: ${UNDONE[outcome.kind]}.\n`);
  return true;
}

/**
 * `brigade uninstall` (docs/46-cli.md "Claude Code's inbound setting"): refused (exit 2) on any
 * sign of a Claude Code session; puts back every Claude Code setting recorded in the configuration
 * folder's `claude-settings-changes.json` (`removeInboundAcceptSetting` with what was there
 * before), forgets each one done with, keeps the ones it could not put back (exit 1), then prints
 * what is left to remove by hand. Never deletes Brigade's own folders: they hold the person's
 * credentials, and leaving a team is `brigade team leave`.
 *
 * @example await runUninstall([], processIo()) // 0
 */
export async function runUninstall(argv: string[], io: CliIo): Promise<number> {
  if (argv.length === 1 && (argv[0] === "--help" || argv[0] === "-h")) {
    io.stdout(HELP);
    return 0;
  }
  if (argv.length > 0 && !argv[0]?.startsWith("-")) {
    return (await import("./install-command.ts")).runClientUninstall(argv, io);
  }
  parseCommandFlags("uninstall", argv, {});
  if (showsClaudeCodeSession(io.env)) {
    io.stderr(`brigade uninstall: ${PERSON_ACT_LINE}\n`);
    return 2;
  }
  const configDir = configDirOf(io, "uninstall");
  if (typeof configDir !== "string") return configDir.status;
  const uid = currentUid();
  const recorded = readSettingsChanges(configDir, uid);
  if (!recorded.ok) {
    io.stderr(
      `brigade uninstall: the record of what Brigade changed in Claude Code's settings cannot be read (${recorded.reason}); nothing changed\n`,
    );
    return 1;
  }
  if (recorded.changes.length === 0) {
    io.stdout("Brigade changed no Claude Code setting: nothing to put back.\n");
  }
  const left = recorded.changes.filter((change) => !undo(io, uid, change));
  if (recorded.changes.length > 0 && !writeSettingsChanges(configDir, left)) {
    io.stderr("brigade uninstall: the record of the changes cannot be updated\n");
  }
  const state = resolveStateDir(io.env);
  const config = harnessConfigLocation(io.env);
  io.stdout(
    [
      "Left to remove by hand:",
      "- the Claude Code plugin: /plugin uninstall brigade@brigade in Claude Code (or stop starting it with --plugin-dir)",
      "- this CLI's link: node scripts/install-cli.mjs --uninstall in your Brigade checkout",
      `- another client you connected: brigade uninstall <${Object.keys(HOST_CLIENTS).join("|")}> (docs/49-hosts.md)`,
      `- Brigade's own folders, once you have left your teams (brigade team leave): ${config.ok ? config.dir : "the configuration folder"} (profiles, credentials, consent) and ${state.ok ? state.dir : "the state folder"} (session state, logs)`,
      "",
    ].join("\n"),
  );
  return left.length === 0 ? 0 : 1;
}
