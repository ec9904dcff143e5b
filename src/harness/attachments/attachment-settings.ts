import { isAbsolute, join } from "node:path";
import { privateToThisUser, readLocalFile } from "../../local-files/index.ts";

/** The file, in the person's Brigade configuration folder, that widens the attachment rules. */
export const ATTACHMENT_SETTINGS_FILE = "attachments.json";

/**
 * How a person widened the default attachment rules (docs/43-session-cli.md, "Attachments"), read
 * from `<config folder>/attachments.json`. Every member is optional; absent, a rule stays as
 * strict as the default. Nothing here can let through Brigade's own credentials or join secrets.
 *
 * - `extra_folders`: absolute folders whose files may be attached besides the session's project
 *   folder (the other rules still apply inside them);
 * - `allow_git_ignored`: files git ignores may be attached;
 * - `allow_git_dir`: files inside a `.git` folder may be attached;
 * - `allow_names`: exact file names let through the credential-name rule (`credential-names.ts`).
 */
export interface AttachmentSettings {
  readonly extraFolders: readonly string[];
  readonly allowGitIgnored: boolean;
  readonly allowGitDir: boolean;
  readonly allowNames: readonly string[];
}

/** The default rules: nothing widened. */
export const STRICT_ATTACHMENT_SETTINGS: AttachmentSettings = Object.freeze({
  extraFolders: [],
  allowGitIgnored: false,
  allowGitDir: false,
  allowNames: [],
});

/** Why the settings file could not be used (then no file is attached). */
export type AttachmentSettingsRefusal = "settings_unsafe" | "settings_invalid";

/** Result of {@link readAttachmentSettings}. */
export type AttachmentSettingsRead =
  | { readonly ok: true; readonly settings: AttachmentSettings }
  | { readonly ok: false; readonly refusal: AttachmentSettingsRefusal };

const MAX_SETTINGS_BYTES = 64 * 1024;

function strings(value: unknown, check: (s: string) => boolean): string[] | null {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > 64) return null;
  return value.every((v) => typeof v === "string" && check(v)) ? (value as string[]) : null;
}

function flag(value: unknown): boolean | null {
  if (value === undefined) return false;
  return typeof value === "boolean" ? value : null;
}

/**
 * Reads `<configDir>/attachments.json`. Absent: {@link STRICT_ATTACHMENT_SETTINGS}. The file must
 * be a regular file, not a link, ours and owner-only like every private file of the folder
 * (`settings_unsafe`: another user who could write it could widen the rules); its content one JSON object of the
 * members of {@link AttachmentSettings} in their wire spelling, each of its type, folders
 * absolute (`settings_invalid`). Unknown members are ignored. Never throws.
 *
 * @example readAttachmentSettings("/home/dana/.config/brigade") // { ok: true, settings: … }
 */
export function readAttachmentSettings(configDir: string): AttachmentSettingsRead {
  const read = readLocalFile(join(configDir, ATTACHMENT_SETTINGS_FILE), {
    maxBytes: MAX_SETTINGS_BYTES,
    ...privateToThisUser(),
  });
  if (!read.ok) {
    if (read.reason === "missing") return { ok: true, settings: STRICT_ATTACHMENT_SETTINGS };
    return {
      ok: false,
      refusal: read.reason === "too_large" ? "settings_invalid" : "settings_unsafe",
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(read.bytes));
  } catch {
    return { ok: false, refusal: "settings_invalid" };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { ok: false, refusal: "settings_invalid" };
  }
  const o = parsed as Record<string, unknown>;
  const extraFolders = strings(o.extra_folders, (s) => s !== "" && isAbsolute(s));
  const allowNames = strings(o.allow_names, (s) => s !== "" && !s.includes("/"));
  const allowGitIgnored = flag(o.allow_git_ignored);
  const allowGitDir = flag(o.allow_git_dir);
  if (
    extraFolders === null ||
    allowNames === null ||
    allowGitIgnored === null ||
    allowGitDir === null
  ) {
    return { ok: false, refusal: "settings_invalid" };
  }
  return { ok: true, settings: { extraFolders, allowGitIgnored, allowGitDir, allowNames } };
}
