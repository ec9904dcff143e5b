import type { AttachmentSettingsRefusal } from "./attachment-settings.ts";
import type { AttachmentRefusal } from "./prepare-attachments.ts";

/** Where the person widens the rules, as a line shows it (`~` for the home folder). */
function shown(settingsPath: string, home: string | undefined): string {
  if (home !== undefined && home !== "/" && settingsPath.startsWith(`${home}/`)) {
    return `~${settingsPath.slice(home.length)}`;
  }
  return settingsPath;
}

/** What a line needs besides the refusal: the file's position, the limits, the settings file. */
export interface AttachmentLineFacts {
  /** 0-based position of the file among the command's attachments. */
  readonly index: number;
  readonly maxFiles: number;
  readonly maxFileBytes: number;
  readonly maxMessageBytes: number;
  /** The settings file's absolute path. */
  readonly settingsPath: string;
  /** `HOME`, to show the settings file as `~/…`. */
  readonly home: string | undefined;
}

/**
 * The one line a refused attachment gets (docs/43-session-cli.md, "Attachments"): which rule,
 * naming the file by its position (never its path: the model wrote it), and how the person —
 * not the model — widens the rule in their own settings file, or that nothing widens it.
 *
 * @example attachmentRefusalLine("git_ignored", facts) // "invalid_input: attachment 1 is ignored by git, …"
 */
export function attachmentRefusalLine(
  refusal: AttachmentRefusal | AttachmentSettingsRefusal,
  facts: AttachmentLineFacts,
): string {
  const n = `attachment ${facts.index + 1}`;
  const file = shown(facts.settingsPath, facts.home);
  const widen = (setting: string) =>
    `; your user (not you) can allow it with ${setting} in ${file}`;
  const sentence = ((): string => {
    switch (refusal) {
      case "unreadable":
        return `${n} does not name a file that can be read`;
      case "brigade_folder":
        return `${n} is in Brigade's own configuration or state folder, whose files are never attached`;
      case "no_project":
        return `this session recorded no project folder (it was registered before attachments existed), so only an extra folder's files can be attached; restart the session, or your user (not you) can list the folder under "extra_folders" in ${file}`;
      case "outside_project":
        return `${n} is outside this session's project folder (a link that leads out of it counts as outside)${widen('the folder listed under "extra_folders"')}`;
      case "not_regular":
        return `${n} is not a regular file (a folder, a device, a pipe or a socket)`;
      case "unsendable_name":
        return `${n}'s file name holds a control character; your user can rename the file`;
      case "git_dir":
        return `${n} is inside a .git folder${widen('"allow_git_dir": true')}`;
      case "credential_name":
        return `${n} has a name credentials are kept under (.env, id_rsa and other SSH keys, *.pem, *.key, … listed in docs/43-session-cli.md)${widen('that exact name listed under "allow_names"')}`;
      case "git_ignored":
        return `${n} is ignored by git, and ignored files are where .env files and keys live${widen('"allow_git_ignored": true')}`;
      case "git_unknown":
        return `git could not be run to check whether ${n} is ignored; install git, or your user (not you) can allow ignored files with "allow_git_ignored": true in ${file}`;
      case "too_large":
        return `${n} is larger than ${facts.maxFileBytes} bytes, the per-file limit of the team's server`;
      case "too_many":
        return `a message names at most ${facts.maxFiles} files`;
      case "message_too_large":
        return `the attachments together pass ${facts.maxMessageBytes} bytes, the per-message limit of the team's server`;
      case "brigade_secret":
        return `${n} holds a Brigade join secret or credential; such a file can never be attached, whatever the settings say`;
      case "settings_unsafe":
        return `the attachment settings file ${file} is not a private regular file of your user (mode 0600); no file is attached until your user fixes it`;
      case "settings_invalid":
        return `the attachment settings file ${file} is not valid (docs/43-session-cli.md gives its form); no file is attached until your user fixes it`;
    }
  })();
  return `invalid_input: ${sentence}`;
}
