import { lstatSync } from "node:fs";
import { join } from "node:path";
import {
  claudeConfigDir,
  crossSessionInboundOf,
  ensureInboundAcceptSetting,
  type InboundSettingBefore,
  MAX_SETTINGS_BYTES,
} from "../../harness/claude-code/index.ts";
import { readLocalFile } from "../../local-files/index.ts";
import type { CliIo } from "../cli-io.ts";
import { configDirOf } from "../config-folder.ts";
import type { AskPerson } from "./ask-person.ts";
import { readSettingsChanges, writeSettingsChanges } from "./settings-changes.ts";

/** What {@link approveInboundSetting} needs besides the person: their uid, the clock, the question. */
export interface InboundApproval {
  readonly io: CliIo;
  readonly uid: number;
  readonly ask: AskPerson;
  /** The clock, ms since the epoch (the record's time). */
  readonly now: () => number;
}

const PREFIX = "brigade doctor --fix";

/** The question, in the person's own terminal; `file` is the user settings path (theirs to see). */
function question(file: string): string {
  return [
    "Claude Code holds every message another session posts into a session that bypasses permission",
    'prompts, for a dialog, unless its user settings say "crossSessionInbound": "accept". Without it,',
    "Brigade delivers teammates' messages to such sessions at their next prompt or tool call.",
    "With it they arrive live; but the setting is Claude Code's own, for every sender: any other",
    "session on this machine could then post into your bypassing sessions without that dialog.",
    `Add "crossSessionInbound": "accept" to ${file}?`,
    "(brigade uninstall puts back what was there) [y/N] ",
  ].join("\n");
}

/** The top-level `crossSessionInbound` of the user settings, if it holds one. */
function currentValue(file: string): string | undefined {
  const read = readLocalFile(file, { maxBytes: MAX_SETTINGS_BYTES, followSymlink: true });
  return read.ok ? crossSessionInboundOf(read.bytes) : undefined;
}

function beforeOf(file: string): InboundSettingBefore {
  try {
    lstatSync(file);
    return "absent";
  } catch {
    return "no_file";
  }
}

/**
 * `brigade doctor --fix`'s one fix (docs/46-cli.md "Claude Code's inbound setting"): asks the
 * person, on their own terminal, whether the user `settings.json` may say
 * `"crossSessionInbound": "accept"`, and only on their yes adds it (`ensureInboundAcceptSetting`),
 * after recording what was there before (`absent` or `no_file`) in the configuration folder, so
 * `brigade uninstall` puts it back exactly. Nothing is asked when the key is already there
 * (whatever its value: a value the person chose is theirs), when there is no Claude Code folder,
 * or when the configuration folder or its record cannot be used. Returns the exit status: 0 done,
 * declined or nothing to do; 1 not possible (the reason on stderr, nothing changed); 2 no terminal
 * to ask on. The caller refuses inside a Claude Code session before this runs.
 *
 * @example return approveInboundSetting({ io, uid: currentUid(), ask: askOnTerminal, now: Date.now });
 */
export async function approveInboundSetting(a: InboundApproval): Promise<number> {
  const { io } = a;
  const dir = claudeConfigDir(io.env);
  if (dir === undefined) {
    io.stderr(
      `${PREFIX}: no Claude Code config folder: set HOME (or CLAUDE_CONFIG_DIR) to an absolute path\n`,
    );
    return 1;
  }
  const file = join(dir, "settings.json");
  const current = currentValue(file);
  if (current !== undefined) {
    io.stdout(
      current === "accept"
        ? "Claude Code's user settings already say crossSessionInbound accept: nothing to change.\n"
        : "Claude Code's user settings set crossSessionInbound to another value, your own choice: Brigade leaves it.\n",
    );
    return 0;
  }
  const configDir = configDirOf(io, "doctor --fix");
  if (typeof configDir !== "string") return configDir.status;
  const recorded = readSettingsChanges(configDir, a.uid);
  if (!recorded.ok) {
    io.stderr(
      `${PREFIX}: the record of what Brigade changed in Claude Code's settings cannot be read (${recorded.reason}); nothing changed\n`,
    );
    return 1;
  }
  const answer = await a.ask(question(file));
  if (answer === "no_terminal") {
    io.stderr(
      `${PREFIX}: it asks before changing Claude Code's settings, and no terminal is attached: run it in your own terminal\n`,
    );
    return 2;
  }
  if (answer === "no") {
    io.stdout("Left unchanged.\n");
    return 0;
  }
  const others = recorded.changes.filter((change) => change.file !== file);
  const at = new Date(a.now()).toISOString();
  const before = beforeOf(file);
  // The record first: a change Brigade could not undo is never made.
  if (!writeSettingsChanges(configDir, [...others, { file, before, at }])) {
    io.stderr(`${PREFIX}: the record of the change cannot be written; nothing changed\n`);
    return 1;
  }
  const outcome = ensureInboundAcceptSetting(dir, a.uid);
  if (outcome.kind === "inserted" || outcome.kind === "created") {
    const actual = outcome.kind === "created" ? "no_file" : "absent";
    if (actual !== before)
      writeSettingsChanges(configDir, [...others, { file, before: actual, at }]);
    io.stdout(
      `Added "crossSessionInbound": "accept" to ${file}. Sessions that bypass permission prompts now receive teammates' messages live (a running one from its next prompt); brigade uninstall puts back what was there.\n`,
    );
    return 0;
  }
  writeSettingsChanges(configDir, others);
  if (outcome.kind !== "refused") {
    io.stdout(
      "Claude Code's user settings gained crossSessionInbound meanwhile: nothing changed.\n",
    );
    return 0;
  }
  io.stderr(
    `${PREFIX}: Claude Code's user settings were left as they are (${outcome.reason}; docs/errors.md)\n`,
  );
  return 1;
}
