import { readdirSync } from "node:fs";
import { join } from "node:path";
import { CREDENTIALS_DIR, ProfileStore } from "../adapters/http/index.ts";
import {
  ATTACHMENT_SETTINGS_FILE,
  attachmentRefusalLine,
  type PreparedAttachment,
  prepareAttachments,
  readAttachmentSettings,
} from "../harness/attachments/index.ts";
import { bapErrorLine, type SessionContext } from "../harness/session-context/index.ts";
import {
  ATTACHMENT_LIMITS,
  type AttachmentLimits,
  hasCapability,
  isBapError,
  type MessageAttachment,
} from "../protocol/index.ts";
import type { CommandText } from "./command-text.ts";

/** Exit status of an attachment refused before anything was sent: BAP/1 `invalid_input`. */
const REFUSED_STATUS = 3;

/** The bearer tokens of the profiles under `configDir` (no file may carry one out). */
function profileTokens(configDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(join(configDir, CREDENTIALS_DIR));
  } catch {
    return [];
  }
  const tokens: string[] = [];
  for (const name of names) {
    if (!name.endsWith(".json")) continue;
    const read = new ProfileStore(configDir, name.slice(0, -".json".length)).readCredential();
    if (read.kind === "ok" && read.value.token.length >= 16) tokens.push(read.value.token);
  }
  return tokens;
}

/** Files checked and open for upload, or the one line and status of the refusal. */
export type SessionAttachments =
  | { readonly ok: true; readonly files: readonly PreparedAttachment[] }
  | (CommandText & { readonly ok: false });

/**
 * Checks the files a session wants to attach, before any network call (docs/43-session-cli.md,
 * "Attachments"): the adapter must carry attachments (`message.attachments`), the person's
 * settings file must be usable, and every file must pass the rules of `prepareAttachments` within
 * the limits `describe` advertises; relative paths are read in `cwd`. A refusal is one
 * `invalid_input` line (exit 3) naming the file's position and how the person widens the rule.
 * On success the caller closes every file.
 *
 * @example const files = await sessionAttachments(ctx, ["build.log"], process.cwd(), process.env);
 */
export async function sessionAttachments(
  ctx: SessionContext,
  paths: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<SessionAttachments> {
  const described = await ctx.adapter.describe();
  if (!hasCapability(described.capabilities, "message.attachments")) {
    return {
      ok: false,
      status: 2,
      line: "usage: this team's Brigade adapter cannot carry attachments; update Brigade",
    };
  }
  const limits: AttachmentLimits = described.attachments ?? { ...ATTACHMENT_LIMITS };
  const facts = {
    index: 0,
    maxFiles: limits.max_attachments_per_message,
    maxFileBytes: limits.max_attachment_bytes,
    maxMessageBytes: limits.max_message_attachment_bytes,
    settingsPath: join(ctx.configDir, ATTACHMENT_SETTINGS_FILE),
    home: env.HOME,
  };
  const settings = readAttachmentSettings(ctx.configDir);
  if (!settings.ok) {
    return {
      ok: false,
      status: REFUSED_STATUS,
      line: attachmentRefusalLine(settings.refusal, facts),
    };
  }
  const prepared = prepareAttachments(paths, {
    project: ctx.map.checkout,
    cwd,
    brigadeFolders: [ctx.configDir, ctx.layout.root],
    secrets: profileTokens(ctx.configDir),
    settings: settings.settings,
    limits,
    env,
  });
  if (!prepared.ok) {
    return {
      ok: false,
      status: REFUSED_STATUS,
      line: attachmentRefusalLine(prepared.refusal, { ...facts, index: prepared.index }),
    };
  }
  return { ok: true, files: prepared.files };
}

/**
 * Uploads the prepared files one after another, each streamed from the descriptor it was checked
 * on. The attachments to name in the send, or the line of the first failure: `digest_mismatch` /
 * `size_mismatch` (the file changed since it was read) as its own sentence, anything else as the
 * adapter's error line.
 */
export async function uploadAttachments(
  ctx: SessionContext,
  files: readonly PreparedAttachment[],
): Promise<
  { readonly ok: true; readonly attachments: MessageAttachment[] } | (CommandText & { ok: false })
> {
  const upload = ctx.adapter.messageUpload.bind(ctx.adapter);
  for (const [index, file] of files.entries()) {
    const { sha256, size } = file.attachment;
    try {
      await upload({ sha256, size }, file.bytes());
    } catch (error) {
      if (!isBapError(error)) throw error;
      const reason = error.details?.reason;
      if (reason === "digest_mismatch" || reason === "size_mismatch") {
        return {
          ok: false,
          status: error.exitStatus,
          line: `invalid_input: attachment ${index + 1} changed while it was being sent; send again`,
        };
      }
      return { ok: false, status: error.exitStatus, line: bapErrorLine(error) };
    }
  }
  return { ok: true, attachments: files.map((f) => f.attachment) };
}
